//! The interactive viewer inside a `tpsview report` file. From a Trunk build of the web app
//! (`dist/`, found through its index.html): the page's module (wasm-bindgen's JS and the wasm),
//! the loading worker's (its JS and its boot script as one classic script, and its wasm: a
//! `file://` page cannot start a module worker from a blob: URL), each gzip-compressed and base64-encoded in
//! a `<script type="application/octet-stream">` that never runs; the page's start script
//! (public/boot.js) inline; and one inline module that decompresses the parts
//! (`DecompressionStream`), makes blob: URLs of them and starts the app from them. Both inline
//! scripts are allowed by their hash; nothing is fetched but those blob: URLs. The app then opens
//! the report's own data (`#tpsview-bundle`) and replaces the static body once it shows it.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};
use base64::Engine as _;
use sha2::Digest as _;

/// The build to embed: `given`, else `$TPSVIEW_APP`, else the dist/ of the source tree this
/// binary was built from.
pub fn app_dir(given: Option<&Path>) -> PathBuf {
    given
        .map(Path::to_path_buf)
        .or_else(|| std::env::var_os("TPSVIEW_APP").map(PathBuf::from))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../dist"))
}

/// The parts, by the id of the element that holds each.
const PARTS: [&str; 6] = [
    "tpsview-app-page-js",
    "tpsview-app-page-wasm",
    "tpsview-app-worker-js",
    "tpsview-app-worker-wasm",
    "tpsview-app-teach-js",
    "tpsview-app-teach-wasm",
];

/// A build of the viewer, ready to embed.
pub struct App {
    /// public/boot.js as built.
    boot: String,
    /// Each part's gzip, in base64, in the order of [`PARTS`].
    parts: Vec<String>,
    /// The start module (inline).
    start: String,
}

/// The text of `s` after `start` up to `end`.
fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = s.find(start)? + start.len();
    let len = s[from..].find(end)?;
    Some(&s[from..from + len])
}

/// `'sha256-…'` of a script's text, as a CSP names it.
fn hash(text: &str) -> String {
    let digest = sha2::Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

impl App {
    /// Reads the build in `dir`: the files its index.html names.
    pub fn read(dir: &Path) -> anyhow::Result<App> {
        let index_path = dir.join("index.html");
        let index = std::fs::read_to_string(&index_path)
            .with_context(|| format!("no build of the web app at {}", dir.display()))?;
        let named = |what: &str, start: &str, end: &str| {
            between(&index, start, end)
                .map(|n| n.trim_start_matches("./").to_owned())
                .ok_or_else(|| anyhow!("{} names no {what}", index_path.display()))
        };
        let boot_name = named("start script", "<script src=\"./boot-", "\"")?;
        let page_js = named("page module", "rel=\"modulepreload\" href=\"", "\"")?;
        let page_wasm = named("page wasm", "rel=\"preload\" href=\"", "\"")?;
        let meta = named("loading worker", "<meta name=\"tpsview-worker\"", "/>")?;
        let worker_boot = between(&meta, "content=\"./", "\"")
            .ok_or_else(|| anyhow!("{}: the worker's meta has no content", index_path.display()))?
            .to_owned();
        let worker_wasm = between(&meta, "data-wasm=\"./", "\"")
            .ok_or_else(|| {
                anyhow!(
                    "{}: the worker's meta has no data-wasm",
                    index_path.display()
                )
            })?
            .to_owned();
        let read = |name: &str| {
            std::fs::read(dir.join(name))
                .with_context(|| format!("cannot read {}", dir.join(name).display()))
        };
        let boot = String::from_utf8(read(&format!("boot-{boot_name}"))?)?;
        let loader = String::from_utf8(read(&worker_boot)?)?;
        let worker_js = between(&loader, "from './", "'")
            .ok_or_else(|| anyhow!("{worker_boot} imports no module"))?
            .to_owned();
        // The worker's one classic script: its glue without its exports (the `import.meta` of a
        // default it never takes: the page hands it the compiled module), then its boot script
        // with the glue's default export (wasm-bindgen's `init`) in place of the import of it.
        let glue = String::from_utf8(read(&worker_js)?)?;
        let export_list = between(&glue, "export { ", " }")
            .ok_or_else(|| anyhow!("{worker_js} has no export list"))?;
        let init = export_list
            .split(", ")
            .find_map(|e| e.strip_suffix(" as default"))
            .ok_or_else(|| anyhow!("{worker_js} has no default export"))?;
        let import = format!("import init from './{worker_js}';");
        if !loader.contains(&import) {
            return Err(anyhow!(
                "{worker_boot} does not import {worker_js} as expected"
            ));
        }
        let exports = format!("export {{ {export_list} }};");
        let classic = glue
            .replace(&exports, "")
            .replace("import.meta.url", "self.location.href");
        if classic.contains("export {") || classic.contains("import.meta") {
            return Err(anyhow!(
                "{worker_js} is not the module this tpsview can embed"
            ));
        }
        let worker = format!(
            "{classic}\n{}",
            loader.replace(&import, &format!("const init = {init};"))
        );
        // The teaching screens' module (its glue as it is: the start module imports it from a
        // blob: URL and hands it its wasm).
        let teach = named("teaching module", "<meta name=\"tpsview-teach\"", "/>")?;
        let teach_boot = between(&teach, "content=\"./", "\"")
            .ok_or_else(|| anyhow!("{}: the teaching meta has no content", index_path.display()))?
            .to_owned();
        let teach_wasm = between(&teach, "data-wasm=\"./", "\"")
            .ok_or_else(|| {
                anyhow!(
                    "{}: the teaching meta has no data-wasm",
                    index_path.display()
                )
            })?
            .to_owned();
        let teach_js = between(&String::from_utf8(read(&teach_boot)?)?, "from './", "'")
            .ok_or_else(|| anyhow!("{teach_boot} imports no module"))?
            .to_owned();
        let mut parts = Vec::new();
        for bytes in [
            read(&page_js)?,
            read(&page_wasm)?,
            worker.into_bytes(),
            read(&worker_wasm)?,
            read(&teach_js)?,
            read(&teach_wasm)?,
        ] {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            gz.write_all(&bytes)?;
            parts.push(base64::engine::general_purpose::STANDARD.encode(gz.finish()?));
        }
        let start = START.replace("PARTS", &serde_json::to_string(&PARTS)?);
        Ok(App { boot, parts, start })
    }

    /// The report's policy with the viewer inside: its two inline scripts by hash, modules and
    /// workers from the blob: URLs it makes, WebAssembly compiled; no connection beyond blob: and
    /// data: URLs.
    pub fn csp(&self) -> String {
        format!(
            "default-src 'none'; style-src 'unsafe-inline'; img-src data: blob:; \
             script-src {} {} 'wasm-unsafe-eval' blob:; worker-src blob:; connect-src blob: data:; \
             base-uri 'none'; form-action 'none'",
            hash(&self.boot),
            hash(&self.start)
        )
    }

    /// What goes in `<head>`: the start script.
    pub fn head(&self) -> String {
        format!("<script>{}</script>", self.boot)
    }

    /// What goes at the end of `<body>`: the parts and the module that starts the app.
    pub fn tail(&self) -> String {
        let mut out = String::new();
        for (id, part) in PARTS.iter().zip(&self.parts) {
            let _ = write!(
                out,
                "<script type=\"application/octet-stream\" id=\"{id}\">{part}</script>"
            );
        }
        let _ = write!(out, "<script type=\"module\">{}</script>", self.start);
        out
    }

    /// How many bytes of the report are the viewer.
    pub fn embedded_len(&self) -> usize {
        // What `head` and `tail` write, counted without writing it again.
        let parts: usize = PARTS
            .iter()
            .zip(&self.parts)
            .map(|(id, p)| {
                p.len()
                    + id.len()
                    + "<script type=\"application/octet-stream\" id=\"\"></script>".len()
            })
            .sum();
        let scripts = "<script></script><script type=\"module\"></script>".len();
        parts + scripts + self.boot.len() + self.start.len()
    }
}

/// The start module: each part decompressed into a blob: URL, the worker's named in `<meta
/// name="tpsview-worker">` and the teaching module's boot (made here: it imports the glue's blob:
/// URL and starts it on the wasm's) in `<meta name="tpsview-teach">` (where the app looks), then
/// the page's module imported and started with its wasm. If any step fails (a browser without
/// `DecompressionStream`), the static report stays as it is.
const START: &str = r#"
const ids = PARTS;
const part = async (id) => {
  const bin = Uint8Array.from(atob(document.getElementById(id).textContent), (c) => c.charCodeAt(0));
  const out = new Blob([bin]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(out).arrayBuffer());
};
const url = (bytes, type) => URL.createObjectURL(new Blob([bytes], { type }));
const js = 'text/javascript';
const [pageJs, pageWasm, worker, workerWasm, teachJs, teachWasm] = await Promise.all(ids.map(part));
const meta = document.createElement('meta');
meta.name = 'tpsview-worker';
meta.content = url(worker, js);
meta.dataset.classic = '';
meta.dataset.wasm = url(workerWasm, 'application/wasm');
const teach = document.createElement('meta');
teach.name = 'tpsview-teach';
teach.content = url(`import init from '${url(teachJs, js)}';\ninit({ module_or_path: '${url(teachWasm, 'application/wasm')}' });\n`, js);
document.head.append(meta, teach);
const app = await import(url(pageJs, js));
await app.default({ module_or_path: pageWasm });
"#;
