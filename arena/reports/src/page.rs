//! One report page: title, sections, inline charts and the games of the viewer, rendered into
//! the HTML template with its CSS and script inline.

use std::fmt::Write as _;
use std::path::Path;

use crate::games::ViewerData;
use crate::html::{escape, inline_svg, script_json};
use wuzi_runs::error::{ArenaError, Result};

const TEMPLATE: &str = include_str!("../assets/page.html");
const STYLE: &str = include_str!("../assets/style.css");
const SCRIPT: &str = include_str!("../assets/report.js");
const VIEWER: &str = include_str!("../assets/viewer.html");
const ANALYSIS_STYLE: &str = include_str!("../assets/analysis.css");
const ANALYSIS_SCRIPT: &str = include_str!("../assets/analysis.js");

/// A section of a [`Page`]: an anchor id, a heading and trusted HTML (built from escaped
/// parts by this module's helpers).
#[derive(Clone, Debug)]
struct Section {
    id: String,
    title: String,
    html: String,
}

/// A self-contained HTML report under construction.
#[derive(Clone, Debug, Default)]
pub struct Page {
    title: String,
    subtitle: String,
    sections: Vec<Section>,
    charts: usize,
    games: Option<ViewerData>,
    analysis: Option<String>,
}

/// A chart to embed: what it shows and its SVG text.
#[derive(Clone, Debug)]
pub struct Chart {
    /// Caption.
    pub caption: String,
    /// The SVG document.
    pub svg: String,
}

impl Page {
    /// An empty page with a title (text, escaped when rendered).
    pub fn new(title: impl Into<String>) -> Page {
        Page {
            title: title.into(),
            ..Page::default()
        }
    }

    /// The line under the title (text).
    pub fn subtitle(&mut self, text: impl Into<String>) {
        self.subtitle = text.into();
    }

    /// Adds a section of trusted HTML. Ids are made unique with a suffix.
    pub fn section(&mut self, id: &str, title: impl Into<String>, html: impl Into<String>) {
        let mut unique = id.to_string();
        let mut n = 2;
        while self.sections.iter().any(|s| s.id == unique) {
            unique = format!("{id}-{n}");
            n += 1;
        }
        self.sections.push(Section {
            id: unique,
            title: title.into(),
            html: html.into(),
        });
    }

    /// Adds a section of inline SVG charts; charts whose SVG cannot be embedded safely are
    /// listed as missing instead.
    pub fn charts(&mut self, id: &str, title: impl Into<String>, charts: &[Chart]) {
        if charts.is_empty() {
            return;
        }
        let mut html = String::from("<div class=\"charts\">\n");
        for c in charts {
            match inline_svg(&c.svg) {
                Some(svg) => {
                    self.charts += 1;
                    let _ = writeln!(
                        html,
                        "<figure class=\"chart\">{svg}<figcaption>{}</figcaption></figure>",
                        escape(&c.caption)
                    );
                }
                None => {
                    let _ = writeln!(
                        html,
                        "<p class=\"note\">chart not embedded (not a plain SVG): {}</p>",
                        escape(&c.caption)
                    );
                }
            }
        }
        html.push_str("</div>\n");
        self.section(id, title, html);
    }

    /// Sets the games of the page's viewer (one viewer a page), shown in a section titled
    /// `title`.
    pub fn games(&mut self, title: impl Into<String>, games: ViewerData) {
        self.section("games", title, VIEWER);
        self.games = Some(games);
    }

    /// Adds the viewer's analysis layer (evaluation graph, analyst's moves, decisive
    /// mistakes; `assets/analysis.js`) with its data, trusted HTML (a `<script>` of escaped
    /// JSON, [`crate::analysis::ReportAnalysis::script_data`]). Pages without it hold
    /// neither the script nor its style.
    pub fn analysis(&mut self, data: String) {
        self.analysis = Some(data);
    }

    /// Number of charts embedded so far.
    pub fn chart_count(&self) -> usize {
        self.charts
    }

    /// The whole HTML document.
    pub fn render(&self) -> String {
        let mut nav = String::new();
        let mut body = String::new();
        for s in &self.sections {
            let _ = write!(
                nav,
                "<a href=\"#{}\">{}</a>",
                escape(&s.id),
                escape(&s.title)
            );
            let _ = write!(
                body,
                "<section id=\"{}\">\n<h2>{}</h2>\n{}</section>\n",
                escape(&s.id),
                escape(&s.title),
                s.html
            );
        }
        let data = match &self.games {
            Some(g) => format!(
                "<script type=\"application/json\" id=\"wuzi-games\">{}</script>",
                script_json(&serde_json::to_string(g).expect("viewer data serializes"))
            ),
            None => String::new(),
        };
        let extra = match &self.analysis {
            Some(data) => format!(
                "\n{data}\n<style>\n{ANALYSIS_STYLE}</style>\n<script>\n{ANALYSIS_SCRIPT}</script>"
            ),
            None => String::new(),
        };
        let generator = format!("wuzi-arena {}", env!("CARGO_PKG_VERSION"));
        fill(TEMPLATE, |name| match name {
            "TITLE" => escape(&self.title),
            "SUBTITLE" => escape(&self.subtitle),
            "GENERATOR" => escape(&generator),
            "NAV" => nav.clone(),
            "BODY" => body.clone(),
            "DATA" => data.clone(),
            "EXTRA" => extra.clone(),
            "STYLE" => STYLE.to_string(),
            "SCRIPT" => SCRIPT.to_string(),
            other => panic!("unknown template field {other}"),
        })
        .replacen(
            "<body>",
            &format!("<body data-charts=\"{}\">", self.charts),
            1,
        )
    }

    /// Writes the page to `path`, through a temporary file so a reader never sees half a
    /// report.
    pub fn write(&self, path: &Path) -> Result<()> {
        // One temporary name per process: shards sharing a folder may finish together.
        let tmp = path.with_extension(format!("html.tmp-{}", std::process::id()));
        std::fs::write(&tmp, self.render()).map_err(|e| ArenaError::io(&tmp, e))?;
        std::fs::rename(&tmp, path).map_err(|e| ArenaError::io(path, e))
    }
}

/// Replaces each `{{NAME}}` of the template (only the template's own text is scanned, never
/// the values put in).
fn fill(template: &str, value: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(template.len() * 2);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after.find("}}").expect("template fields are closed");
        out.push_str(&value(&after[..end]));
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-line rule of `selector` in the page's style sheet.
    fn rule(selector: &str) -> &'static str {
        STYLE
            .lines()
            .find(|l| l.starts_with(&format!("{selector} {{")))
            .unwrap_or_else(|| panic!("no rule for {selector}"))
    }

    // No headless browser here to measure the page at 1,400 px: the rules that made the summary
    // table and the charts too wide for a laptop are checked instead.
    #[test]
    fn wide_tables_scroll_in_their_box_and_headers_wrap() {
        let wide = rule(".wide");
        assert!(wide.contains("overflow-x: auto") && wide.contains("max-width: 100%"));
        assert!(
            !rule("table.sortable th").contains("nowrap"),
            "headers must wrap"
        );
    }

    #[test]
    fn charts_are_shown_near_their_drawn_width_so_labels_stay_readable() {
        let fig = rule("figure.chart");
        // The last pixel length of declaration `key` (`flex: 1 1 860px` gives 860).
        let px = |key: &str| -> f64 {
            let value = fig
                .split(key)
                .nth(1)
                .expect(key)
                .split(';')
                .next()
                .expect(key);
            let last = value.split_whitespace().last().expect(key);
            last.trim_end_matches("px").parse().expect("a pixel length")
        };
        let width = f64::from(wuzi_charts::DRAWN_WIDTH);
        // Shown at 85 % or more of its drawn width a 15 px label reads at about 13 px.
        assert!(px("flex:") >= 0.85 * width, "{fig}");
        assert!(px("max-width:") >= width, "{fig}");
    }

    #[test]
    fn template_values_are_not_rescanned_and_titles_are_escaped() {
        let mut page = Page::new("<b>{{BODY}}</b>");
        page.section("x", "a & b", "<p>{{TITLE}}</p>");
        let html = page.render();
        assert!(html.contains("<title>&lt;b&gt;{{BODY}}&lt;/b&gt;</title>"));
        assert!(html.contains("<p>{{TITLE}}</p>"));
        assert!(html.contains("<h2>a &amp; b</h2>"));
        assert!(html.contains("<body data-charts=\"0\">"));
        // No network: nothing is loaded from anywhere.
        assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
    }

    #[test]
    fn unsafe_charts_are_listed_not_embedded() {
        let mut page = Page::new("t");
        page.charts(
            "charts",
            "Charts",
            &[
                Chart {
                    caption: "good".into(),
                    svg: "<?xml version=\"1.0\"?><svg viewBox=\"0 0 2 2\"></svg>".into(),
                },
                Chart {
                    caption: "bad".into(),
                    svg: "<svg><script>alert(1)</script></svg>".into(),
                },
            ],
        );
        assert_eq!(page.chart_count(), 1);
        let html = page.render();
        assert!(!html.contains("alert(1)"));
        assert!(html.contains("chart not embedded (not a plain SVG): bad"));
        assert!(html.contains("<body data-charts=\"1\">"));
    }
}
