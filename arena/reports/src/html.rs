//! Escaping for everything a report embeds, and small HTML builders.

use std::fmt::Write as _;

/// Text for HTML element content and quoted attribute values: `& < > " '` escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON text made safe inside `<script type="application/json">`: `<`, `>` and `&` become
/// `\u003c`, `\u003e`, `\u0026` (they occur only inside JSON strings, where the escapes mean
/// the same), so no `</script>` or `<!--` can end or confuse the element.
pub fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// An SVG document (as plotters writes it) made fit to sit inside HTML: the XML declaration
/// and anything before `<svg` dropped. `None` if it holds no `<svg` element or holds markup
/// that could run script (plotters escapes all text, so this only guards against a
/// damaged or foreign file).
pub fn inline_svg(svg: &str) -> Option<String> {
    let start = svg.find("<svg")?;
    let body = svg[start..].trim_end();
    // Text is escaped (`&lt;`), so every `<` opens a real tag: look at the tags only.
    let lower = body.to_ascii_lowercase();
    for tag in lower.split('<').skip(1) {
        let tag: String = tag
            .split('>')
            .next()
            .unwrap_or("")
            .chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .collect();
        let name = tag.trim_start_matches('/');
        if name.starts_with("script")
            || name.starts_with("foreignobject")
            || name.starts_with("iframe")
            || tag.contains("javascript:")
            || has_event_attribute(&tag)
        {
            return None;
        }
    }
    Some(body.to_string())
}

/// Does the (lower-case) markup hold an attribute like ` onload=`?
fn has_event_attribute(lower: &str) -> bool {
    lower.match_indices(" on").any(|(i, _)| {
        let rest = &lower[i + 3..];
        let name_len = rest.chars().take_while(char::is_ascii_alphabetic).count();
        name_len > 0 && rest[name_len..].trim_start().starts_with('=')
    })
}

/// A cell of a [`table`]: its text (escaped when written), an optional sort value and
/// whether it is numeric (right-aligned).
#[derive(Clone, Debug, Default)]
pub struct Cell {
    /// Shown text.
    pub text: String,
    /// Value the sortable table sorts by, when the text is not it (`data-v`).
    pub sort: Option<String>,
    /// Right-aligned number.
    pub numeric: bool,
    /// Already escaped HTML instead of text.
    pub html: bool,
}

impl Cell {
    /// Plain text.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            ..Cell::default()
        }
    }

    /// A number, right-aligned, sorted by its value.
    pub fn num(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            numeric: true,
            ..Cell::default()
        }
    }

    /// A right-aligned cell sorted by `value` (for `+12.3 ± 4.5` and the like).
    pub fn sorted(text: impl Into<String>, value: Option<f64>) -> Cell {
        Cell {
            text: text.into(),
            sort: Some(value.filter(|v| !v.is_nan()).map_or_else(
                || "-1e300".to_string(),
                |v| {
                    if v.is_infinite() {
                        if v > 0.0 { "1e299" } else { "-1e299" }.to_string()
                    } else {
                        format!("{v}")
                    }
                },
            )),
            numeric: true,
            html: false,
        }
    }

    /// Trusted HTML (built by this module from escaped parts).
    pub fn html(html: impl Into<String>) -> Cell {
        Cell {
            text: html.into(),
            html: true,
            ..Cell::default()
        }
    }
}

/// A table: header cells, rows, optional id and classes (`sortable` makes the headers sort),
/// and per-row attributes (`data-open-game="K"` opens game K in the viewer).
pub fn table(
    id: Option<&str>,
    class: &str,
    header: &[&str],
    rows: &[(Vec<Cell>, Option<String>)],
) -> String {
    let mut s = String::new();
    let _ = write!(s, "<table");
    if let Some(id) = id {
        let _ = write!(s, " id=\"{}\"", escape(id));
    }
    if !class.is_empty() {
        let _ = write!(s, " class=\"{}\"", escape(class));
    }
    s.push_str("><thead><tr>");
    let numeric: Vec<bool> = (0..header.len())
        .map(|c| {
            rows.first()
                .is_some_and(|(r, _)| r.get(c).is_some_and(|x| x.numeric))
        })
        .collect();
    for (c, h) in header.iter().enumerate() {
        let cls = if numeric[c] { " class=\"n\"" } else { "" };
        let _ = write!(s, "<th{cls}>{}</th>", escape(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for (row, attrs) in rows {
        s.push_str("<tr");
        if let Some(a) = attrs {
            s.push(' ');
            s.push_str(a);
        }
        s.push('>');
        for cell in row {
            s.push_str("<td");
            if cell.numeric {
                s.push_str(" class=\"n\"");
            }
            if let Some(v) = &cell.sort {
                let _ = write!(s, " data-v=\"{}\"", escape(v));
            }
            s.push('>');
            if cell.html {
                s.push_str(&cell.text);
            } else {
                s.push_str(&escape(&cell.text));
            }
            s.push_str("</td>");
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    s
}

/// A two-column key/value table (`table.kv`); values are text, escaped here.
pub fn key_values(rows: &[(&str, String)]) -> String {
    let mut s = String::from("<table class=\"kv\"><tbody>\n");
    for (k, v) in rows {
        if v.is_empty() {
            continue;
        }
        let _ = writeln!(s, "<tr><th>{}</th><td>{}</td></tr>", escape(k), escape(v));
    }
    s.push_str("</tbody></table>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(
            escape(r#"<script>alert("x&'y')</script>"#),
            "&lt;script&gt;alert(&quot;x&amp;&#39;y&#39;)&lt;/script&gt;"
        );
    }

    #[test]
    fn script_json_cannot_close_its_element() {
        let json = serde_json::to_string(&serde_json::json!({"name": "</script><!-- & \u{2028}"}))
            .unwrap();
        let safe = script_json(&json);
        assert!(!safe.contains('<') && !safe.contains('>') && !safe.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["name"], "</script><!-- & \u{2028}");
    }

    #[test]
    fn inline_svg_drops_the_declaration_and_refuses_script() {
        let svg = "<?xml version=\"1.0\"?>\n<svg viewBox=\"0 0 1 1\"><text>a &lt; b</text></svg>\n";
        assert_eq!(
            inline_svg(svg).unwrap(),
            "<svg viewBox=\"0 0 1 1\"><text>a &lt; b</text></svg>"
        );
        assert!(inline_svg("<svg><script>x()</script></svg>").is_none());
        assert!(inline_svg("<svg><rect onload=\"x()\"/></svg>").is_none());
        assert!(inline_svg("<svg><rect\n\tonclick = \"x()\"/></svg>").is_none());
        assert!(inline_svg("no svg here").is_none());
        // Text that merely contains " on" or escaped markup is fine.
        assert!(inline_svg("<svg><text>Elo on games</text></svg>").is_some());
        assert!(inline_svg("<svg><text>&lt;img src=x onerror=alert(1)&gt;</text></svg>").is_some());
    }

    #[test]
    fn tables_escape_cells_and_mark_numbers() {
        let rows = vec![(
            vec![Cell::text("<b>"), Cell::sorted("+1.0 ± 2", Some(1.0))],
            Some("data-open-game=\"3\"".to_string()),
        )];
        let t = table(Some("t"), "sortable", &["name", "elo"], &rows);
        assert!(t.contains("<td>&lt;b&gt;</td>"), "{t}");
        assert!(
            t.contains("<td class=\"n\" data-v=\"1\">+1.0 ± 2</td>"),
            "{t}"
        );
        assert!(t.contains("<th class=\"n\">elo</th>"), "{t}");
        assert!(t.contains("<tr data-open-game=\"3\">"), "{t}");
    }
}
