//! The README's user journeys, end to end with the real binaries and small budgets: the quick
//! start (default match) then `report` (checked in headless Chromium where installed) and
//! `export`; a tune from the example spec, interrupted and resumed, then `verify` and
//! `report`; the gate passing and failing; a match killed with SIGKILL and resumed; self-play
//! records, a fit of two weights from them, and the fitted set in a match.
//!
//! Every command is taken from the README's code blocks ([`wuzi_tests::readme::find`]) and
//! only its budget (pairs, nodes) and output folder are changed, so renaming a command or
//! a flag in the README or in the code without the other fails here.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wuzi_arena::record::{read_records, GameRecord, GAMES_FILE};
use wuzi_tests::browser;
use wuzi_tests::readme::{find, ReadmeCommand};
use wuzi_tests::{bin, describe, repo_root, TempDir};

/// Runs a README command (its program from the target folder) in `cwd` (default: the
/// repository root); returns the exit code, asserting it is `expect`.
fn exec(cmd: &ReadmeCommand, cwd: Option<&Path>, expect: i32) -> std::process::Output {
    let out = Command::new(bin(&cmd.program))
        .args(&cmd.args)
        .current_dir(cwd.map_or_else(repo_root, Path::to_path_buf))
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(expect),
        "README: `{}`\n{}",
        cmd.text,
        describe(&cmd.args, &out)
    );
    out
}

fn games(dir: &Path) -> Vec<GameRecord> {
    let mut r = read_records(&dir.join(GAMES_FILE))
        .expect("records")
        .records;
    r.sort_by_key(GameRecord::key);
    r
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// Quick start (`cargo run --release -p wuzi-arena -- match`, budget cut to 3 pairs at 200
/// nodes), in a fresh folder: it writes `arena-out/match-<UTC time>/` with records, summary,
/// charts and report; then `wuzi-arena analyze` (the README example), `wuzi-arena report DIR`
/// (and the page in Chromium, the analysis graph included) and
/// `wuzi-arena export DIR --format psq --out psq/`.
#[test]
fn quick_start_then_report_and_export() {
    let tmp = TempDir::new("quick-start");
    let quick = commands_quick_start();
    let out = exec(
        &quick
            .set("--pairs", "3")
            .set("--nodes", "200")
            .set("--concurrency", "2"),
        Some(tmp.path()),
        0,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("default vs weak"),
        "summary table:\n{stdout}"
    );
    let runs: Vec<PathBuf> = std::fs::read_dir(tmp.join("arena-out"))
        .expect("arena-out/ written")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("match-"))
        })
        .collect();
    assert_eq!(runs.len(), 1, "one arena-out/match-<time> folder");
    let dir = &runs[0];
    for f in [
        "run.json",
        "games.jsonl",
        "summary.json",
        "score.svg",
        "report.html",
    ] {
        assert!(dir.join(f).exists(), "{f} missing in {}", dir.display());
    }
    let records = games(dir);
    assert_eq!(records.len(), 6);

    // analyze (the README's example on this run, its analyst at 6000 nodes): the report
    // written next shows the analysis, and its page checks the graph in the browser.
    let review = tmp.join("review.toml");
    exec(
        &find(
            "wuzi-arena",
            "analyze",
            &["--analyst", "--export-positions"],
        )
        .replace("runs/rapfi-gauntlet", &s(dir))
        .set("--analyst", "default,nodes=6000")
        .set("--player", "weak")
        .set("--export-positions", &s(&review)),
        None,
        0,
    );
    assert!(dir.join("analysis-summary.json").exists());

    // report: written again from the folder.
    std::fs::remove_file(dir.join("report.html")).expect("rm");
    exec(
        &find("wuzi-arena", "report", &["DIR"]).replace("DIR", &s(dir)),
        None,
        0,
    );
    let page = dir.join("report.html");
    let html = std::fs::read_to_string(&page).expect("report.html");
    for r in &records {
        let moves = wuzi_engine::Pos::format_list(&r.all_moves());
        assert!(html.contains(&moves), "report lacks game {:?}", r.key());
    }
    assert!(html.matches("<figure class=\"chart\"><svg").count() >= 3);
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
    assert!(
        html.contains("<h2>Analysis</h2>"),
        "the report shows the analysis"
    );
    browser_checks(&page, &tmp);
    analysis_browser_check(&page, &tmp);

    // export: one PSQ file per game, its moves as recorded.
    let psq = tmp.join("psq");
    exec(
        &find("wuzi-arena", "export", &["--format", "psq"])
            .replace("DIR", &s(dir))
            .set("--out", &s(&psq)),
        None,
        0,
    );
    let files = std::fs::read_dir(&psq).expect("psq/").count();
    assert_eq!(files, records.len());
    let first = &records[0];
    let text = std::fs::read_to_string(psq.join(wuzi_arena::record::psq_file_name(first)))
        .expect("psq file");
    assert!(text.starts_with("Piskvorky 15x15"));
    let move_lines = text.lines().skip(1).take_while(|l| l.contains(',')).count();
    assert_eq!(move_lines, first.all_moves().len());

    // replay: a node-limited game comes out the same, exit 0.
    let out = exec(
        &find("wuzi-arena", "replay", &["--game"])
            .replace("DIR", &s(dir))
            .set("--game", &format!("{}.{}", first.pair, first.game)),
        None,
        0,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("identical: "), "{stdout}");

    // export: one SGF file per game.
    let sgf = tmp.join("sgf");
    exec(
        &find("wuzi-arena", "export", &["--format", "sgf"])
            .replace("DIR", &s(dir))
            .set("--out", &s(&sgf)),
        None,
        0,
    );
    assert_eq!(
        std::fs::read_dir(&sgf).expect("sgf/").count(),
        records.len()
    );
}

/// The README's quick-start command (the first line of the Quick start block).
fn commands_quick_start() -> ReadmeCommand {
    let c = find("wuzi-arena", "match", &[]);
    assert_eq!(
        c.args,
        ["match"],
        "the quick start is the bare default match: `{}`",
        c.text
    );
    c
}

/// The report in headless Chromium: the page's self-check steps the viewer through a game
/// (buttons and arrow keys, move numbers, last move, forbidden points, sorting) with no
/// console errors, and a screenshot of the viewer is taken. Skipped, saying why, without
/// Chromium.
fn browser_checks(page: &Path, tmp: &TempDir) {
    let Some(chrome) = browser::chromium() else {
        eprintln!(
            "SKIPPED browser check of {}: no chromium in PATH (apt-get install chromium; .ci/run \
             installs it)",
            page.display()
        );
        return;
    };
    let result = browser::self_test(&chrome, page);
    let verdict = result.verdict.unwrap_or_else(|| {
        panic!(
            "the page wrote no self-check result (a script error?): {:?}",
            result.console_errors
        )
    });
    assert!(verdict.starts_with("SELFTEST PASS"), "{verdict}");
    assert!(verdict.contains("steps="), "{verdict}");
    assert!(
        result.console_errors.is_empty(),
        "console errors: {:?}",
        result.console_errors
    );
    // The check can fail: the same page with the viewer's drawing broken must not pass.
    let html = std::fs::read_to_string(page).expect("page");
    let broken = html.replacen(
        "function draw() {",
        "function draw() { undefinedHelper();",
        1,
    );
    assert_ne!(
        broken, html,
        "the viewer's draw() is where the breakage goes"
    );
    let broken_page = tmp.join("broken.html");
    std::fs::write(&broken_page, broken).expect("write");
    let bad = browser::self_test(&chrome, &broken_page);
    assert!(
        !bad.verdict
            .as_deref()
            .unwrap_or("")
            .starts_with("SELFTEST PASS"),
        "a broken viewer passed: {:?}",
        bad.verdict
    );
    let png = tmp.join("viewer.png");
    assert!(
        browser::screenshot(&chrome, page, "game=1&ply=12&focus", &png, (1060, 720)),
        "no screenshot"
    );
    let bytes = std::fs::read(&png).expect("png");
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
        "{} bytes",
        bytes.len()
    );
    eprintln!(
        "browser check passed ({verdict}); screenshot {}",
        png.display()
    );
}

/// The analysed report in headless Chromium: the analysis layer's own self-check opens a game
/// with a decisive mistake and finds the evaluation graph, the mistake's dot and line, the
/// analyst's move on the board and the current-position mark. Skipped without Chromium.
fn analysis_browser_check(page: &Path, tmp: &TempDir) {
    let Some(chrome) = browser::chromium() else {
        return;
    };
    let result = browser::self_test(&chrome, page);
    let verdict = result.verdict.unwrap_or_default();
    assert!(verdict.contains("ANALYSIS PASS"), "{verdict}");
    assert!(
        verdict.contains("analysis-game="),
        "no game with a decisive mistake was checked: {verdict}"
    );
    // The check can fail: without the decisive mistake's dot the page must not pass.
    let html = std::fs::read_to_string(page).expect("page");
    let broken = html.replacen("{ 'class': 'decisive',", "{ 'class': 'not-decisive',", 1);
    assert_ne!(
        broken, html,
        "the graph's decisive dot is where the breakage goes"
    );
    let broken_page = tmp.join("broken-analysis.html");
    std::fs::write(&broken_page, broken).expect("write");
    let bad = browser::self_test(&chrome, &broken_page)
        .verdict
        .unwrap_or_default();
    assert!(
        bad.contains("ANALYSIS FAIL"),
        "a page without the dot passed: {bad}"
    );
}

/// The example spec with a small budget, its base as an absolute path and its output in `out`.
fn small_spec(dir: &Path, out: &Path) -> PathBuf {
    let root = repo_root();
    let text = std::fs::read_to_string(root.join("suites/params/tune-example.toml"))
        .expect("example spec");
    let mut spec: toml::Table = toml::from_str(&text).expect("example spec is TOML");
    spec.insert("pairs".into(), 16.into());
    spec.insert("pairs_per_iteration".into(), 8.into());
    spec.insert("openings".into(), "random:16".into());
    spec.insert("concurrency".into(), 2.into());
    let base = spec
        .get("base")
        .and_then(|b| b.as_str())
        .expect("base")
        .to_string();
    spec.insert(
        "base".into(),
        s(&root.join("suites/params").join(base)).into(),
    );
    spec.insert("out".into(), s(out).into());
    let limits = spec
        .get_mut("limits")
        .and_then(|l| l.as_table_mut())
        .expect("[limits]");
    limits.insert("nodes".into(), 150.into());
    let verify = spec
        .get_mut("verify")
        .and_then(|v| v.as_table_mut())
        .expect("[verify]");
    verify.insert("pairs".into(), 4.into());
    verify.insert("openings".into(), "random:4".into());
    let path = dir.join(format!(
        "{}.toml",
        out.file_name().expect("name").to_string_lossy()
    ));
    std::fs::write(&path, toml::to_string(&spec).expect("toml")).expect("write spec");
    path
}

/// `wuzi-tune tune --spec ...` on the example spec (16 pairs, 150 nodes), `verify --spec`,
/// `report`; and the same tune stopped after one iteration and finished with `wuzi-tune resume
/// DIR`, which must end with exactly the uninterrupted tune's values.
#[test]
fn tune_verify_resume_and_report() {
    let tmp = TempDir::new("tune");
    let example = "suites/params/tune-example.toml";
    let whole = tmp.join("whole");
    let spec = small_spec(tmp.path(), &whole);
    exec(
        &find("wuzi-tune", "tune", &["--spec", example]).replace(example, &s(&spec)),
        None,
        0,
    );
    for f in [
        "tuned.toml",
        "history.csv",
        "paths.svg",
        "report.html",
        "verify/report.html",
    ] {
        assert!(whole.join(f).exists(), "{f} missing");
    }
    let out = exec(
        &find("wuzi-tune", "verify", &["--spec", example]).replace(example, &s(&spec)),
        None,
        0,
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("verification: tuned vs start Elo"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    std::fs::remove_file(whole.join("report.html")).expect("rm");
    exec(
        &find("wuzi-tune", "report", &["tunes/example"]).replace("tunes/example", &s(&whole)),
        None,
        0,
    );
    let html = std::fs::read_to_string(whole.join("report.html")).expect("tune report");
    assert!(html.contains("id=\"params-table\"") && html.contains("id=\"wuzi-games\""));
    // The verdict (tuned against start) opens the page, before the parameters.
    let verdict = html
        .find("<section id=\"verdict\">")
        .expect("verdict section");
    let params = html.find("id=\"params-table\"").expect("params");
    assert!(verdict < params, "the verdict is not at the top");
    assert!(
        html[verdict..params].contains("<div class=\"verdict "),
        "no verdict banner"
    );
    assert!(
        html[verdict..params].contains("tuned vs start"),
        "not the verification's verdict"
    );

    // Interrupted after one of two iterations, then resumed.
    let parts = tmp.join("parts");
    let spec2 = small_spec(tmp.path(), &parts);
    exec(
        &find("wuzi-tune", "tune", &["--spec", example])
            .replace(example, &s(&spec2))
            .set("--max-iterations", "1"),
        None,
        0,
    );
    let history = |d: &Path| std::fs::read_to_string(d.join("history.csv")).expect("history");
    assert_eq!(history(&parts).lines().count(), 2, "header + one iteration");
    exec(
        &find("wuzi-tune", "resume", &["tunes/example"]).replace("tunes/example", &s(&parts)),
        None,
        0,
    );
    assert_eq!(history(&parts), history(&whole));
    assert_eq!(
        std::fs::read_to_string(parts.join("tuned.toml")).expect("tuned"),
        std::fs::read_to_string(whole.join("tuned.toml")).expect("tuned")
    );
}

/// `wuzi-arena gate --candidate 'params=new.toml' --baseline params=...default.toml ...` with
/// the weakened set fails (exit 1) and with the defaults at 3 % more nodes passes (exit 0);
/// both write summary.md and report.html. The defaults against themselves are refused (exit
/// 2, issue 24): their games are mirror pairs, so such a gate could not fail.
#[test]
fn gate_fails_a_weaker_candidate_passes_a_stronger_and_refuses_the_same() {
    let tmp = TempDir::new("gate");
    let gate = find("wuzi-arena", "gate", &["--candidate", "--baseline"]);
    let same = tmp.join("same");
    let out = exec(
        &gate
            .clone()
            .replace("new.toml", "suites/params/default.toml")
            .set("--suite", "suites/rules")
            .set("--out", &s(&same))
            .flag("--quiet"),
        None,
        2,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the same player"), "{err}");
    assert!(!same.join("match").join(GAMES_FILE).exists());
    for (params, code, word) in [
        ("suites/params/weak.toml", 1, "FAIL"),
        ("suites/params/default.toml,nodes=309", 0, "PASS"),
    ] {
        let out = tmp.join(if code == 0 { "pass" } else { "fail" });
        exec(
            &gate
                .clone()
                .replace("new.toml", params)
                .set("--nodes", "300")
                .set("--pairs", "60")
                .set("--suite", "suites/rules")
                .set("--concurrency", "2")
                .set("--out", &s(&out))
                .flag("--quiet"),
            None,
            code,
        );
        let md = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
        assert!(md.contains(word), "{md}");
        let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
        assert!(html.contains(&format!("Strength gate: {word}")));
    }
}

/// "Gating another engine": the README's registry entry (its `toml` block) and its first
/// `gate --engine` command on a scratch repository of a small C brain built by `make`: the commit
/// that switches its blocking off fails against its parent (exit 1), and a README-only commit on
/// top passes against that commit (exit 0); both reports name the commits built.
#[test]
fn engine_gate_fails_a_weakened_commit_and_passes_an_unchanged_one() {
    let tmp = TempDir::new("engine-gate");
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README");
    let section = readme
        .split("### Gating another engine")
        .nth(1)
        .expect("README has the section");
    let entry = section
        .split("```toml\n")
        .nth(1)
        .and_then(|t| t.split("```").next())
        .expect("the section's toml block");
    // Budget only: this brain reads whole lines, so no settle gap is needed.
    let registry = tmp.join("engines.toml");
    std::fs::write(&registry, format!("{entry}settle-ms = 0\n")).expect("writes");
    let repo = tmp.join("mybrain");
    std::fs::create_dir_all(&repo).expect("dir");
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .arg("-C")
            .arg(&repo)
            .args(["-c", "user.name=j", "-c", "user.email=j@test.invalid"])
            .args(args)
            .output()
            .expect("git");
        assert!(o.status.success(), "git {args:?}");
        String::from_utf8_lossy(&o.stdout).trim().to_string()
    };
    let brain = include_str!("../../arena/tests/data/tiny_brain.c");
    std::fs::write(repo.join("tiny.c"), brain).expect("writes");
    std::fs::write(
        repo.join("Makefile"),
        "pbrain-mybrain: tiny.c\n\tcc -O2 -o pbrain-mybrain tiny.c\n",
    )
    .expect("writes");
    std::fs::write(repo.join(".gitignore"), "/pbrain-mybrain\n").expect("writes");
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "brain"]);
    let weak = brain.replace("#define BLOCK 1", "#define BLOCK 0");
    std::fs::write(repo.join("tiny.c"), weak).expect("writes");
    git(&["commit", "-qam", "stop blocking"]);
    let gate = find("wuzi-arena", "gate", &["--engine", "--rule"])
        .set("--engines", &s(&registry))
        .set("--repo", &s(&repo))
        .set("--build-dir", &s(&tmp.join("build")))
        .set("--pairs", "100")
        .set("--concurrency", "2")
        .set("--baseline-ref", "HEAD~1")
        .flag("--quiet");
    let fail = tmp.join("fail");
    exec(&gate.clone().set("--out", &s(&fail)), None, 1);
    std::fs::write(repo.join("README"), "mybrain\n").expect("writes");
    git(&["add", "README"]);
    git(&["commit", "-qm", "a README"]);
    let pass = tmp.join("pass");
    exec(&gate.set("--out", &s(&pass)), None, 0);
    let json = std::fs::read_to_string(pass.join("gate.json")).expect("gate.json");
    let report: serde_json::Value = serde_json::from_str(&json).expect("parses");
    assert_eq!(
        report["candidate_commit"],
        git(&["rev-parse", "HEAD"]).as_str()
    );
    assert_eq!(
        report["baseline_commit"],
        git(&["rev-parse", "HEAD~1"]).as_str()
    );
    let html = std::fs::read_to_string(pass.join("report.html")).expect("report.html");
    assert!(html.contains("Strength gate: PASS"), "report.html");
}

/// A match killed with SIGKILL mid-run and continued with `wuzi-arena resume DIR` ends with
/// the same games and statistics as the same match played without interruption.
#[test]
fn match_resumes_after_sigkill() {
    let tmp = TempDir::new("resume");
    let m = find("wuzi-arena", "match", &["--sprt", "0,10"])
        .set("--nodes", "800")
        .set("--pairs", "8")
        .set("--sprt", "off")
        .set("--concurrency", "2")
        .flag("--quiet");
    let killed = tmp.join("killed");
    let mut child = Command::new(bin("wuzi-arena"))
        .args(&m.clone().set("--out", &s(&killed)).args)
        .current_dir(repo_root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    let lines =
        |d: &Path| std::fs::read_to_string(d.join(GAMES_FILE)).map_or(0, |t| t.lines().count());
    while lines(&killed) < 3 && start.elapsed() < Duration::from_secs(120) {
        assert!(
            child.try_wait().expect("wait").is_none(),
            "the match ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reap");
    let at_kill = lines(&killed);
    assert!(at_kill < 16, "killed after {at_kill} of 16 games");

    exec(
        &find("wuzi-arena", "resume", &[]).replace("arena-out/match-...", &s(&killed)),
        None,
        0,
    );
    let whole = tmp.join("whole");
    exec(&m.set("--out", &s(&whole)), None, 0);
    let strip = |v: Vec<GameRecord>| -> Vec<GameRecord> {
        v.iter().map(GameRecord::without_timing).collect()
    };
    assert_eq!(strip(games(&killed)), strip(games(&whole)));
    let summary = |d: &Path| {
        let v: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(d.join("summary.json")).expect("summary"),
        )
        .expect("json");
        v["matchups"].clone()
    };
    assert_eq!(summary(&killed), summary(&whole));
    assert!(killed.join("report.html").exists());
}

/// Reports of other run kinds: `wuzi-arena sweep --param defence --values ...` (5 points, one
/// pair each), two shards sharing one folder, and that folder merged with `wuzi-arena merge
/// --out all DIR`; each folder ends with a `report.html` holding its tables and every game.
#[test]
fn sweep_and_merged_shards_get_reports() {
    let tmp = TempDir::new("kinds");
    let sweep = tmp.join("sweep");
    exec(
        &find("wuzi-arena", "sweep", &["--param", "defence"])
            .set("--nodes", "150")
            .set("--pairs", "1")
            .set("--concurrency", "2")
            .set("--out", &s(&sweep))
            .flag("--quiet"),
        None,
        0,
    );
    let html = std::fs::read_to_string(sweep.join("report.html")).expect("sweep report");
    assert!(
        html.contains("<title>Sweep of defence</title>") && html.contains("id=\"sweep-table\"")
    );
    assert!(
        html.contains("\"total\":10,\"shown\":10"),
        "5 points x 2 games in the viewer"
    );

    // Two shards sharing one folder (`--shard i/n --out SHARED`), then merged into another.
    let m = find("wuzi-arena", "match", &["--sprt", "0,10"])
        .set("--nodes", "150")
        .set("--pairs", "4")
        .set("--sprt", "off")
        .set("--concurrency", "2")
        .flag("--quiet");
    let shared = tmp.join("shared");
    for i in 0..2 {
        exec(
            &m.clone()
                .set("--shard", &format!("{i}/2"))
                .set("--out", &s(&shared)),
            None,
            0,
        );
    }
    let html = std::fs::read_to_string(shared.join("report.html")).expect("shared report");
    assert!(html.contains("\"total\":8,"), "both shards' games");
    let all = tmp.join("all");
    let merge = ReadmeCommand {
        program: "wuzi-arena".into(),
        args: vec!["merge".into(), "--out".into(), s(&all), s(&shared)],
        text: "wuzi-arena merge --out all DIR...".into(),
    };
    exec(&merge, None, 0);
    let html = std::fs::read_to_string(all.join("report.html")).expect("merged report");
    let records = games(&all);
    assert_eq!(records.len(), 8);
    for r in &records {
        assert!(html.contains(&wuzi_engine::Pos::format_list(&r.all_moves())));
    }
}

/// The README's self-play command ("Fitting evaluation weights to recorded games"), 4 pairs at
/// 100 nodes, into `records`.
fn self_play(records: &Path) {
    let selfplay = find("wuzi-arena", "match", &["--out", "runs/self"]);
    exec(
        &selfplay
            .set("--openings", "random:4")
            .set("--nodes", "100")
            .set("--concurrency", "2")
            .set("--out", &s(records))
            .flag("--quiet"),
        None,
        0,
    );
}

/// "Fitting evaluation weights to recorded games": the detuned set's self-play (4 pairs at 100
/// nodes), `wuzi-tune fit` of the two weights on it, then the fitted set against the defaults
/// (2 pairs), each command as the README writes it.
#[test]
fn self_play_then_fit_then_match() {
    let tmp = TempDir::new("fit");
    let records = tmp.join("runs/self");
    let fitted = tmp.join("fits/self");
    self_play(&records);
    let fit = find("wuzi-tune", "fit", &["--base", "--out", "fits/self"]);
    let out = exec(
        &fit.set("--records", &s(&records))
            .set("--out", &s(&fitted))
            .set("--epochs", "5")
            .flag("--quiet"),
        None,
        0,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("defence") && stdout.contains("K = "),
        "{stdout}"
    );
    let params = fitted.join("fitted.toml");
    assert!(params.is_file(), "{} missing", params.display());
    let vs = find("wuzi-arena", "match", &["--out", "runs/fit-vs-default"]);
    let player = vs
        .args
        .iter()
        .find(|a| a.starts_with("fit,params="))
        .expect("the fitted player")
        .clone();
    let mut vs = vs
        .set("--openings", "random:2")
        .set("--nodes", "100")
        .set("--concurrency", "2")
        .set("--out", &s(&tmp.join("runs/fit-vs-default")))
        .flag("--quiet");
    for a in vs.args.iter_mut().filter(|a| **a == player) {
        *a = format!("fit,params={}", params.display());
    }
    let out = exec(&vs, None, 0);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("fit vs default"),
        "{}",
        describe(&vs.args, &out)
    );
}

/// "The combination table": the table in effect for a parameter file, a fit of the whole table
/// on self-play records (4 pairs at 100 nodes), then the fitted table against the defaults
/// (2 pairs), each command as the README writes it.
#[test]
fn table_print_then_table_fit_then_match() {
    let tmp = TempDir::new("table");
    let show = find("wuzi", "params", &["--table"]);
    let out = exec(&show, None, 0);
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        table.lines().filter(|l| l.starts_with("cmb_")).count(),
        96,
        "{table}"
    );
    let records = tmp.join("runs/self");
    self_play(&records);
    let fitted = tmp.join("fits/table");
    let fit = find("wuzi-tune", "fit", &["--param", "cmb_*", "fits/table"]);
    let out = exec(
        &fit.set("--records", &s(&records))
            .set("--out", &s(&fitted))
            .set("--epochs", "5")
            .set("--min-positions", "5")
            .flag("--quiet"),
        None,
        0,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("cmb_white_f1t1w0"), "{stdout}");
    let params = fitted.join("fitted.toml");
    let text = std::fs::read_to_string(&params).expect("fitted.toml");
    assert!(text.contains("cmb_"), "no table entry in {text}");
    let vs = find("wuzi-arena", "match", &["--out", "runs/table-vs-default"]);
    let player = vs
        .args
        .iter()
        .find(|a| a.starts_with("table,params="))
        .expect("the table player")
        .clone();
    let mut vs = vs
        .set("--openings", "random:2:4")
        .set("--nodes", "100")
        .set("--concurrency", "2")
        .set("--sprt", "off")
        .set("--out", &s(&tmp.join("runs/table-vs-default")))
        .flag("--quiet");
    for a in vs.args.iter_mut().filter(|a| **a == player) {
        *a = format!("table,params={}", params.display());
    }
    let out = exec(&vs, None, 0);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("table vs default"),
        "{}",
        describe(&vs.args, &out)
    );
}
