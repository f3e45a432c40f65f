//! Browser tests in real headless Chromium: a built fixture book served by a tiny
//! static server on 127.0.0.1 (with a strict Content-Security-Policy header), and a
//! WebDriver session through Debian's `chromedriver` (fantoccini).
//!
//! Chromium and chromedriver are found on PATH (or `MATHCOURSE_CHROMIUM` /
//! `MATHCOURSE_CHROMEDRIVER`). When they are missing the tests FAIL with a message
//! saying what to install: CI installs them (`.ci/run`), so a skip would hide a gap.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};

/// The policy the issue asks the pages to work under.
pub const STRICT_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'";

/// One browser at a time: the machine has two cores.
pub fn browser_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

// ---------------------------------------------------------------------------------------
// Static file server

/// A static file server for a folder, on 127.0.0.1 with a free port, stopped on drop.
pub struct Server {
    /// The URL path the site is served under (`/` or, like a GitHub Pages project site,
    /// `/name/`).
    prefix: String,
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// `Content-Type` by file extension.
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "txt" | "md" => "text/plain; charset=utf-8",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// `policy` with the SHA-256 hashes of the inline `<script>` elements of `html` added
/// to its `script-src` (how a site deploys a strict policy for mdBook's pages, whose
/// theme has a few inline scripts; our own files need none of this).
pub fn with_inline_script_hashes(policy: &str, html: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    let mut hashes = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<script") {
        let tag_end = match rest[i..].find('>') {
            Some(j) => i + j + 1,
            None => break,
        };
        let tag = &rest[i..tag_end];
        let close = match rest[tag_end..].find("</script>") {
            Some(j) => tag_end + j,
            None => break,
        };
        if !tag.contains(" src=") {
            let digest = sha2::Sha256::digest(&rest.as_bytes()[tag_end..close]);
            hashes.push_str(&format!(
                " 'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            ));
        }
        rest = &rest[close..];
    }
    policy.replacen(
        "script-src 'self'",
        &format!("script-src 'self'{hashes}"),
        1,
    )
}

/// Which Content-Security-Policy the server sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Csp {
    /// None.
    Off,
    /// Exactly [`STRICT_CSP`]: mdBook's own inline scripts are blocked (and reported).
    Strict,
    /// [`STRICT_CSP`] plus the hashes of each page's inline scripts: the whole page works.
    StrictWithPageHashes,
}

impl Server {
    /// Serves `root` with the policy `csp`.
    pub fn start(root: &Path, csp: Csp) -> Server {
        Server::start_at(root, csp, "/")
    }

    /// Serves `root` under the URL path `prefix` (such as `/mdbook-mathcourse/`); other
    /// paths are 404, as on a real project site.
    pub fn start_at(root: &Path, csp: Csp, prefix: &str) -> Server {
        let prefix = format!("/{}/", prefix.trim_matches('/')).replace("//", "/");
        let served = prefix.clone();
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let root = root.to_path_buf();
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = conn else { continue };
                let root = root.clone();
                let served = served.clone();
                std::thread::spawn(move || {
                    let _ = serve_one(stream, &root, csp, &served);
                });
            }
        });
        Server {
            prefix,
            addr,
            stop,
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:port/<prefix><path>`.
    pub fn url(&self, path: &str) -> String {
        format!(
            "http://{}{}{}",
            self.addr,
            self.prefix,
            path.trim_start_matches('/')
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr); // wake the accept loop
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve_one(stream: TcpStream, root: &Path, csp: Csp, prefix: &str) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut stream = stream;
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let path = percent_decode(path);
    let below_prefix = path.starts_with(prefix) || format!("{path}/") == prefix;
    let path = path.get(prefix.len()..).unwrap_or("");
    let mut file = root.to_path_buf();
    for seg in path.split('/') {
        if seg.is_empty() || seg == "." || seg == ".." {
            continue;
        }
        file.push(seg);
    }
    if file.is_dir() {
        file.push("index.html");
    }
    let read = if below_prefix {
        std::fs::read(&file)
    } else {
        Err(std::io::ErrorKind::NotFound.into())
    };
    let (status, body, ctype) = match read {
        Ok(bytes) if method == "GET" || method == "HEAD" => ("200 OK", bytes, content_type(&file)),
        Ok(_) => ("405 Method Not Allowed", Vec::new(), "text/plain"),
        Err(_) => (
            "404 Not Found",
            b"not found".to_vec(),
            "text/plain; charset=utf-8",
        ),
    };
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n",
        body.len()
    );
    let policy = match csp {
        Csp::Off => None,
        Csp::Strict => Some(STRICT_CSP.to_string()),
        Csp::StrictWithPageHashes if ctype.starts_with("text/html") => Some(
            with_inline_script_hashes(STRICT_CSP, &String::from_utf8_lossy(&body)),
        ),
        Csp::StrictWithPageHashes => Some(STRICT_CSP.to_string()),
    };
    if let Some(policy) = policy {
        head.push_str(&format!("Content-Security-Policy: {policy}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()
}

/// Percent-decoding of a URL path or fragment (UTF-8, lossy).
pub fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

/// GET `url` (http only) and return (status line, headers, body): a check of the server.
pub fn http_get(url: &str) -> (String, String, Vec<u8>) {
    let rest = url.strip_prefix("http://").expect("http URL");
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let mut s = TcpStream::connect(host).expect("connect");
    write!(
        s,
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).unwrap();
    let split = all.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&all[..split]).to_string();
    let (status, headers) = head.split_once("\r\n").unwrap_or((&head, ""));
    (
        status.to_string(),
        headers.to_string(),
        all[split + 4..].to_vec(),
    )
}

// ---------------------------------------------------------------------------------------
// Chromium through chromedriver

/// A program on PATH (or the path in `env_var`), as an absolute path.
fn find_program(env_var: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env_var) {
        return Some(PathBuf::from(p));
    }
    for name in names {
        let candidate = Path::new(name);
        if candidate.is_absolute() {
            if candidate.exists() {
                return Some(candidate.to_path_buf());
            }
            continue;
        }
        for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// The Chromium binary (Debian's launcher script execs `/usr/lib/chromium/chromium`;
/// we start that directly).
pub fn chromium_binary() -> PathBuf {
    find_program(
        "MATHCOURSE_CHROMIUM",
        &["/usr/lib/chromium/chromium", "chromium", "chromium-browser", "google-chrome"],
    )
    .unwrap_or_else(|| {
        panic!(
            "Chromium is not installed, and the browser tests need it.\n\
             Install Debian's packages: `apt-get install chromium chromium-driver` (CI does this in .ci/run),\n\
             or point MATHCOURSE_CHROMIUM and MATHCOURSE_CHROMEDRIVER at a Chromium and its driver."
        )
    })
}

/// The chromedriver binary.
pub fn chromedriver_binary() -> PathBuf {
    find_program(
        "MATHCOURSE_CHROMEDRIVER",
        &["chromedriver", "/usr/lib/chromium/chromedriver"],
    )
    .unwrap_or_else(|| {
        panic!(
            "chromedriver is not installed, and the browser tests need it.\n\
             Install Debian's package: `apt-get install chromium-driver` (CI does this in .ci/run)."
        )
    })
}

/// A headless Chromium session; the driver and the profile folder go away on drop.
pub struct Browser {
    /// The WebDriver client.
    pub client: Client,
    driver: Child,
    _profile: tempfile::TempDir,
}

/// A free TCP port on 127.0.0.1.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// What presses, moves and lifts in [`Browser::drag`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pointer {
    /// A mouse with its left button.
    Mouse,
    /// A finger on a touch screen.
    Touch,
}

impl Browser {
    /// Presses at the first point of `path` (page pixels), moves through the others,
    /// `step` apart, and lifts; one point is a click or a tap.
    pub async fn drag(&self, pointer: Pointer, path: &[(f64, f64)], step: Duration) {
        use fantoccini::actions::{
            InputSource, MouseActions, PointerAction, TouchActions, MOUSE_BUTTON_LEFT,
        };
        let (x0, y0) = path[0];
        let mut actions = vec![
            PointerAction::MoveTo {
                duration: None,
                x: x0.round(),
                y: y0.round(),
            },
            PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            },
        ];
        for &(x, y) in &path[1..] {
            actions.push(PointerAction::MoveTo {
                duration: Some(step),
                x: x.round(),
                y: y.round(),
            });
        }
        actions.push(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
        match pointer {
            Pointer::Mouse => {
                let seq = actions
                    .into_iter()
                    .fold(MouseActions::new("mouse".into()), |s, a| s.then(a));
                self.client.perform_actions(seq).await.unwrap();
            }
            Pointer::Touch => {
                let seq = actions
                    .into_iter()
                    .fold(TouchActions::new("finger".into()), |s, a| s.then(a));
                self.client.perform_actions(seq).await.unwrap();
            }
        }
        self.client.release_actions().await.unwrap();
    }

    /// Starts chromedriver and a headless Chromium of `width`×`height` CSS pixels.
    pub async fn start(width: u32, height: u32) -> Browser {
        let chromium = chromium_binary();
        let driver_bin = chromedriver_binary();
        let port = free_port();
        let driver = Command::new(&driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("could not start {}: {e}", driver_bin.display()));
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not start listening"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let profile = tempfile::tempdir().unwrap();
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.display().to_string(),
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-dev-shm-usage",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-default-apps",
                    "--disable-extensions",
                    "--disable-sync",
                    "--no-first-run",
                    "--no-default-browser-check",
                    "--hide-scrollbars",
                    "--force-device-scale-factor=1",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.path().display()),
                ],
            },
            "goog:loggingPrefs": { "browser": "ALL" },
        });
        let caps = caps.as_object().unwrap().clone();
        let mut builder =
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        builder.capabilities(caps);
        let client = builder
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap_or_else(|e| {
                panic!("could not start a Chromium session through chromedriver: {e}")
            });
        Browser {
            client,
            driver,
            _profile: profile,
        }
    }

    /// Runs `script` (a function body; `arguments` as usual) and returns its value.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Scrolls widget `id` into view and waits until the loader marks it live (the
    /// loader starts a widget when it nears the viewport).
    pub async fn wait_widget_live(&self, id: &str) {
        self.js(
            "document.getElementById(arguments[0]).scrollIntoView({block: 'center'}); return true;",
            vec![serde_json::json!(id)],
        )
        .await;
        self.wait_until(
            &format!("return document.getElementById('{id}').dataset.live === 'true';"),
            Duration::from_secs(20),
            &format!("widget {id} to become live"),
        )
        .await;
    }

    /// Waits until `script` returns true (polling), or panics with `what`.
    pub async fn wait_until(&self, script: &str, timeout: Duration, what: &str) {
        let start = Instant::now();
        loop {
            if self.js(script, vec![]).await == Value::Bool(true) {
                return;
            }
            if start.elapsed() > timeout {
                let errors = self.console().await;
                panic!("timed out after {timeout:?} waiting for {what}; console: {errors:#?}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Browser console entries since the last call: (level, message).
    pub async fn console(&self) -> Vec<(String, String)> {
        let log = self
            .client
            .issue_cmd(BrowserLog)
            .await
            .unwrap_or_else(|e| panic!("reading the browser log failed: {e}"));
        log.as_array()
            .map(|entries| {
                entries
                    .iter()
                    .map(|e| {
                        (
                            e["level"].as_str().unwrap_or("").to_string(),
                            e["message"].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Runs a Chrome DevTools Protocol command through chromedriver.
    pub async fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.client
            .issue_cmd(Cdp {
                cmd: cmd.to_string(),
                params,
            })
            .await
            .unwrap_or_else(|e| panic!("CDP {cmd} failed: {e}"))
    }

    /// Emulates a viewport of `width`×`height` CSS pixels (a phone: mobile, touch), which a
    /// window cannot do below Chromium's minimum window width.
    pub async fn emulate_viewport(&self, width: u32, height: u32, mobile: bool) {
        self.cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        )
        .await;
        self.cdp(
            "Emulation.setTouchEmulationEnabled",
            json!({"enabled": mobile, "maxTouchPoints": 5}),
        )
        .await;
    }

    /// A PNG of the viewport, written to `path`.
    pub async fn screenshot(&self, path: &Path) {
        let png = self.client.screenshot().await.expect("screenshot");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, png).unwrap();
    }

    /// Ends the session.
    pub async fn close(mut self) {
        let _ = self.client.clone().close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// chromedriver's CDP passthrough (not in W3C WebDriver).
#[derive(Debug)]
struct Cdp {
    cmd: String,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or("")
        ))
    }

    fn method_and_body(&self, _url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"cmd": self.cmd, "params": self.params}).to_string()),
        )
    }
}

/// chromedriver's log endpoint (not in W3C WebDriver): the browser console.
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!("session/{}/se/log", session_id.unwrap_or("")))
    }

    fn method_and_body(&self, _url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(r#"{"type":"browser"}"#.to_string()),
        )
    }
}

/// Runs an async browser test on a fresh single-threaded runtime.
pub fn run<F: std::future::Future<Output = ()>>(f: F) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

/// `target/screenshots/` of the repository (whatever `CARGO_TARGET_DIR` says, so the
/// pictures are always in the same place to look at).
pub fn screenshots_dir() -> PathBuf {
    crate::repo_dir().join("target").join("screenshots")
}

/// Runs axe-core (from the tests' npm packages) on the `<main>` of the current page
/// (what the book's chapters are; mdBook's own menu bar and sidebar are not ours);
/// returns the violations as "rule (impact): targets" lines.
pub async fn axe(b: &Browser) -> Vec<String> {
    axe_with(b, "{resultTypes: ['violations']}").await
}

/// The five themes mdBook ships (the class it puts on `<html>`).
pub const THEMES: [&str; 5] = ["light", "rust", "coal", "navy", "ayu"];

/// Switches the current page to mdBook theme `theme` (as its theme menu does) and waits
/// for the styles to apply.
pub async fn set_theme(b: &Browser, theme: &str) {
    b.js(
        "const h = document.documentElement; h.classList.remove('light', 'rust', 'coal', 'navy', 'ayu'); h.classList.add(arguments[0]); return getComputedStyle(document.body).backgroundColor;",
        vec![serde_json::json!(theme)],
    )
    .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
}

/// [`axe`] with axe-core run options `options` (a JavaScript object literal), such as
/// `{runOnly: ['color-contrast']}`.
pub async fn axe_with(b: &Browser, options: &str) -> Vec<String> {
    axe_in(b, "{include: [['main']]}", options).await
}

/// [`axe_with`] on the axe-core context `context` (a JavaScript object literal) instead
/// of `<main>`.
pub async fn axe_in(b: &Browser, context: &str, options: &str) -> Vec<String> {
    let source =
        std::fs::read_to_string(crate::tests_dir().join("node_modules/axe-core/axe.min.js"))
            .expect("axe-core is installed by `cargo xtask test` (npm ci in tests/)");
    b.js(&format!("{source}\nreturn true;"), vec![]).await;
    b.js(
        &format!("window.__axe = null; axe.run({context}, {options}).then(r => {{ window.__axe = r.violations.map(v => v.id + ' (' + v.impact + '): ' + v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(', ')); }}).catch(e => {{ window.__axe = String(e).includes('No elements found') ? [] : ['axe-core failed: ' + e]; }}); return true;"),
        vec![],
    )
    .await;
    b.wait_until(
        "return window.__axe !== null;",
        Duration::from_secs(60),
        "axe-core to finish",
    )
    .await;
    b.js("return window.__axe;", vec![])
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// Presses and releases `key` (a WebDriver key action on the focused element).
pub async fn press(b: &Browser, key: fantoccini::key::Key) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let k: char = key.into();
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: k })
        .then(KeyAction::Up { value: k });
    b.client.perform_actions(keys).await.expect("key actions");
    b.client.release_actions().await.expect("release");
}
