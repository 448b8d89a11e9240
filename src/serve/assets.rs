//! The board page's files, embedded in the binary from `web/`: the path each is served at,
//! its MIME type and its text. The page is plain ES modules (`web/js/`, `main.js` first)
//! that the browser fetches one by one: no bundler, nothing fetched from elsewhere.
//!
//! `web/` is also the static page's tree (`make web` copies it as it is): what only that
//! copy loads, the board worker and its engine (`web/engine/`), the service worker and the
//! manifest with its icons, is listed in `STATIC_ONLY` and not served here.
//!
//! The tests follow the page's own references, the `<script>` and `<link>` of `index.html`
//! and the `import` lines of each module, so that a module the page needs cannot be left
//! out of this list, and a file under `web/` that nothing uses cannot stay in it.

/// One file of the page.
pub struct Asset {
    /// The path the server answers with it (`/` for the page itself).
    pub path: &'static str,
    /// Its file under `web/`.
    pub file: &'static str,
    /// Its `Content-Type`.
    pub mime: &'static str,
    pub body: &'static str,
}

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
/// The type a browser requires of a `<script type="module">` and of what it imports.
const JS: &str = "text/javascript; charset=utf-8";

/// A file under `web/`, served at its own path.
macro_rules! asset {
    ($file:literal, $mime:expr) => {
        Asset {
            path: concat!("/", $file),
            file: $file,
            mime: $mime,
            body: include_str!(concat!("../../web/", $file)),
        }
    };
}

/// Every file the page needs.
pub const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        file: "index.html",
        mime: HTML,
        body: include_str!("../../web/index.html"),
    },
    asset!("style.css", CSS),
    asset!("js/main.js", JS),
    asset!("js/state.js", JS),
    asset!("js/messages.js", JS),
    asset!("js/clock.js", JS),
    asset!("js/sound.js", JS),
    asset!("js/socket.js", JS),
    asset!("js/draw.js", JS),
    asset!("js/status.js", JS),
    asset!("js/tree.js", JS),
    asset!("js/annotate.js", JS),
    asset!("js/review.js", JS),
    asset!("js/teach.js", JS),
    asset!("js/learn.js", JS),
    asset!("js/analysis.js", JS),
    asset!("js/render.js", JS),
    asset!("js/derive.js", JS),
    asset!("js/play.js", JS),
    asset!("js/setup.js", JS),
    asset!("js/study.js", JS),
    asset!("js/explorer.js", JS),
    asset!("js/pdn.js", JS),
    asset!("js/tabs.js", JS),
    asset!("js/store.js", JS),
    // Types only (JSDoc, for `tsc`): named in comments as `import("./types.js")`, which the
    // test below follows; the browser never fetches it.
    asset!("js/types.js", JS),
    asset!("js/keys.js", JS),
    asset!("js/share.js", JS),
    asset!("js/puzzle.js", JS),
];

/// The files under `web/` that only the static page (`make web`) loads, and so are not
/// served here: the board in WebAssembly needs its module, which the server does not have
/// (it runs the board itself), and the service worker keeps the static copy offline.
pub const STATIC_ONLY: &[&str] = &[
    "engine/board-host.js",
    "engine/board-worker.js",
    "engine/module.js",
    "engine/search-worker.js",
    "engine/search.js",
    "sw.js",
    "manifest.webmanifest",
    "icon.svg",
    "icon-192.png",
    "icon-512.png",
];

/// The asset served at `path`.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, VecDeque};
    use std::path::Path;

    /// The quoted value after each `name=` in an HTML text (`src="..."`, `href='...'`).
    fn attribute_values(html: &str, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        let key = format!("{name}=");
        let mut rest = html;
        while let Some(i) = rest.find(&key) {
            // Only a whole attribute name: `data-src=` is not `src=`.
            let whole = rest[..i].chars().last().is_none_or(|c| c.is_whitespace());
            rest = &rest[i + key.len()..];
            if let Some(q @ ('"' | '\'')) = rest.chars().next() {
                if let Some(end) = rest[1..].find(q) {
                    if whole {
                        out.push(rest[1..1 + end].to_string());
                    }
                    rest = &rest[1 + end..];
                }
            }
        }
        out
    }

    /// The first quoted string in `s`.
    fn quoted(s: &str) -> Option<String> {
        let start = s.find(['"', '\''])?;
        let q = s[start..].chars().next()?;
        let end = s[start + 1..].find(q)?;
        Some(s[start + 1..start + 1 + end].to_string())
    }

    /// The module specifiers a JavaScript module imports: `import ... from "x"` (on one line
    /// or closing a list over several), `export ... from "x"`, `import "x"` and
    /// `import("x")`. A line that starts an import this cannot read is an error, so that a
    /// new way of writing one is not silently skipped.
    fn imports(js: &str) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        let mut open = false; // inside `import {` ... `} from "x"` over several lines
        for (n, line) in js.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("//") {
                continue;
            }
            let statement = t.starts_with("import ") || t.starts_with("import{");
            let reexport = t.starts_with("export ") && t.contains(" from ");
            if statement || reexport || open {
                if let Some(i) = t.find(" from ") {
                    out.push(quoted(&t[i..]).ok_or(format!("line {}: {t}", n + 1))?);
                    open = false;
                } else if t.starts_with("import \"") || t.starts_with("import '") {
                    out.push(quoted(t).unwrap());
                } else if statement && t.contains('{') && !t.contains('}') {
                    open = true;
                } else if !open {
                    return Err(format!("line {}: an import not understood: {t}", n + 1));
                }
            }
            let mut rest = t;
            while let Some(i) = rest.find("import(") {
                rest = &rest[i + "import(".len()..];
                out.push(quoted(rest).ok_or(format!("line {}: {t}", n + 1))?);
            }
        }
        if open {
            return Err("an import list is never closed".into());
        }
        Ok(out)
    }

    /// `spec` as a path of the server, from the module or page at `base`. Only relative
    /// (`./`, `../`) and absolute paths: a bare name needs a bundler or an import map.
    fn resolve(base: &str, spec: &str) -> Result<String, String> {
        if spec.starts_with("//") || spec.contains("://") || spec.starts_with("data:") {
            return Err(format!("{spec} (from {base}) is not a file of this server"));
        }
        let mut parts: Vec<&str> = if spec.starts_with('/') {
            Vec::new()
        } else if spec.starts_with("./") || spec.starts_with("../") || !base.ends_with(".js") {
            let dir = &base[..base.rfind('/').unwrap()];
            dir.split('/').filter(|p| !p.is_empty()).collect()
        } else {
            return Err(format!(
                "{spec} (from {base}): a bare module name, which a browser cannot load"
            ));
        };
        for p in spec.split('/') {
            match p {
                "" | "." => {}
                ".." => {
                    parts
                        .pop()
                        .ok_or(format!("{spec} (from {base}) leaves the site"))?;
                }
                p => parts.push(p),
            }
        }
        Ok(format!("/{}", parts.join("/")))
    }

    /// Every path the page reaches: its scripts and style sheets, then each module's imports.
    fn reached() -> Result<BTreeSet<String>, String> {
        let page = find("/").ok_or("no page at /")?;
        let mut todo: VecDeque<String> = VecDeque::new();
        for name in ["src", "href"] {
            for v in attribute_values(page.body, name) {
                if !v.starts_with("data:") && !v.starts_with('#') {
                    todo.push_back(resolve("/", &v)?);
                }
            }
        }
        let mut seen = BTreeSet::from(["/".to_string()]);
        while let Some(path) = todo.pop_front() {
            if !seen.insert(path.clone()) {
                continue;
            }
            let asset = find(&path).ok_or(format!("{path} is used by the page but not served"))?;
            if asset.file.ends_with(".js") {
                for spec in imports(asset.body).map_err(|e| format!("{path}: {e}"))? {
                    todo.push_back(resolve(&path, &spec)?);
                }
            }
        }
        Ok(seen)
    }

    #[test]
    fn every_module_the_page_imports_is_served() {
        let seen = reached().unwrap();
        assert!(seen.contains("/js/main.js"), "{seen:?}");
        assert!(seen.contains("/style.css"), "{seen:?}");
        // Every served file is used: nothing left over from an old layout.
        for a in ASSETS {
            assert!(
                seen.contains(a.path),
                "{} is served but the page never uses it",
                a.path
            );
        }
    }

    #[test]
    fn every_file_under_web_is_served_with_the_type_of_its_name() {
        fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    walk(&p, root, out);
                } else {
                    let rel = p.strip_prefix(root).unwrap().to_str().unwrap();
                    out.push(rel.replace('\\', "/"));
                }
            }
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut files = Vec::new();
        walk(&root, &root, &mut files);
        for f in &files {
            assert!(
                ASSETS.iter().any(|a| a.file == f) || STATIC_ONLY.contains(&f.as_str()),
                "web/{f} is neither in ASSETS nor in STATIC_ONLY: add it to one (and import it \
                 where it is used)"
            );
        }
        for f in STATIC_ONLY {
            assert!(
                files.iter().any(|g| g == f),
                "STATIC_ONLY names web/{f}, which is not there"
            );
            assert!(
                !ASSETS.iter().any(|a| a.file == *f),
                "web/{f} is in both lists"
            );
        }
        let mut paths = BTreeSet::new();
        for a in ASSETS {
            assert!(paths.insert(a.path), "{} twice", a.path);
            let want = match a.file.rsplit('.').next() {
                Some("js") => JS,
                Some("css") => CSS,
                Some("html") => HTML,
                _ => panic!("{}: no type known for this file", a.file),
            };
            assert_eq!(a.mime, want, "{}", a.file);
        }
    }

    #[test]
    fn the_import_reader_reads_every_form_and_refuses_what_it_cannot() {
        let js = "// import { no } from \"./comment.js\";\n\
                  import { a, b } from \"./a.js\";\n\
                  import {\n  c,\n  d,\n} from './c.js';\n\
                  import \"./side.js\";\n\
                  export { e } from \"../e.js\";\n\
                  const m = import(\"./lazy.js\");\n";
        assert_eq!(
            imports(js).unwrap(),
            ["./a.js", "./c.js", "./side.js", "../e.js", "./lazy.js"]
        );
        assert!(imports("import * as x\n  from './x.js';\n").is_err());
        assert!(imports("import {\n a\n").is_err());
        assert_eq!(resolve("/js/main.js", "./draw.js").unwrap(), "/js/draw.js");
        assert_eq!(
            resolve("/js/main.js", "../style.css").unwrap(),
            "/style.css"
        );
        assert_eq!(resolve("/", "style.css").unwrap(), "/style.css");
        assert_eq!(resolve("/", "/js/main.js").unwrap(), "/js/main.js");
        assert!(resolve("/js/main.js", "lodash").is_err());
        assert!(resolve("/js/main.js", "https://cdn.example/x.js").is_err());
        assert!(resolve("/js/main.js", "../../x.js").is_err());
        assert_eq!(
            attribute_values("<script data-src=\"no\" src='/a.js'></script>", "src"),
            ["/a.js"]
        );
    }

    #[test]
    fn a_module_left_out_of_the_list_is_caught() {
        // The reader finds an import the list lacks: the check above would fail on it.
        let main = find("/js/main.js").unwrap();
        let with_new = format!("import {{ absent }} from \"./absent.js\";\n{}", main.body);
        let specs = imports(&with_new).unwrap();
        let path = resolve("/js/main.js", &specs[0]).unwrap();
        assert_eq!(path, "/js/absent.js");
        assert!(find(&path).is_none());
    }
}
