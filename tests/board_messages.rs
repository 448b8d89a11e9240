//! The board's messages, written three times, kept as one: their serde types
//! (`crates/engine/src/board/protocol.rs`) are read with `syn`, and each message's fields,
//! nested objects' included, are compared with the page's JSDoc typedefs (`web/js/types.js`)
//! and with docs/BOARD.md's examples, both ways, so that a field added, renamed or removed on
//! one side only fails here, naming it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

use syn::{Attribute, Fields, GenericArgument, Item, PathArguments, Type};

fn read(rel: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

// ---------- the Rust side: protocol.rs's serde types ----------

/// A field as serde writes it.
#[derive(Clone, Debug)]
struct Field {
    /// Its name in JSON (`rename` applied).
    name: String,
    /// The protocol type inside it (through `Option`, `Vec`, `Box`), if it is one of the file's.
    ty: Option<String>,
    /// `#[serde(flatten)]`: its fields stand in the object itself.
    flatten: bool,
    /// A map (`BTreeMap`): its keys are data, not fields.
    map: bool,
}

/// What a struct or an enum's variant holds.
#[derive(Clone, Debug)]
enum Shape {
    Fields(Vec<Field>),
    /// `State(Box<State>)`: the inner type's fields.
    Newtype(String),
    Unit,
}

#[derive(Debug)]
enum Def {
    Struct(Vec<Field>),
    /// Variants by their JSON name; `tagged`: `#[serde(tag = "type")]` (else externally
    /// tagged, each variant's name a key of its own).
    Enum {
        tagged: bool,
        variants: Vec<(String, Shape)>,
    },
}

/// The file's `Serialize`/`Deserialize` types by name.
struct Protocol {
    defs: BTreeMap<String, Def>,
}

/// Each `key` or `key = value` of the `#[serde(...)]` attributes.
fn serde_args(attrs: &[Attribute]) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        a.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            let value = if meta.input.peek(syn::Token![=]) {
                let v: syn::Expr = meta.value()?.parse()?;
                match v {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) => Some(s.value()),
                    _ => None,
                }
            } else {
                None
            };
            out.push((key, value));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("a serde attribute not understood: {e}"));
    }
    out
}

fn serde_value(attrs: &[Attribute], key: &str) -> Option<String> {
    serde_args(attrs)
        .into_iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v)
}

fn derives_serde(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|a| {
            let mut found = false;
            let _ = a.parse_nested_meta(|m| {
                found |= m.path.is_ident("Serialize") || m.path.is_ident("Deserialize");
                Ok(())
            });
            found
        })
}

/// `FooBar` as serde's `snake_case` writes it.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The named type inside `ty`, through the wrappers serde sees through, and whether it is a map.
fn inner(ty: &Type) -> (Option<String>, bool) {
    let Type::Path(p) = ty else {
        return (None, false);
    };
    let Some(last) = p.path.segments.last() else {
        return (None, false);
    };
    let name = last.ident.to_string();
    if name.ends_with("Map") {
        return (None, true);
    }
    if ["Option", "Vec", "Box"].contains(&name.as_str()) {
        if let PathArguments::AngleBracketed(args) = &last.arguments {
            if let Some(GenericArgument::Type(t)) = args.args.first() {
                return inner(t);
            }
        }
    }
    (Some(name), false)
}

fn fields(named: &Fields) -> Vec<Field> {
    named
        .iter()
        .filter(|f| {
            let args = serde_args(&f.attrs);
            !args.iter().any(|(k, _)| k == "skip")
        })
        .map(|f| {
            let (ty, map) = inner(&f.ty);
            Field {
                name: serde_value(&f.attrs, "rename")
                    .unwrap_or_else(|| f.ident.as_ref().unwrap().to_string()),
                ty,
                flatten: serde_args(&f.attrs).iter().any(|(k, _)| k == "flatten"),
                map,
            }
        })
        .collect()
}

/// The messages (`protocol.rs`) and what they carry (`protocol/data.rs`) as one list of
/// items: the second file's module doc left out, which only a file's start may hold.
fn protocol_text() -> String {
    let data = read("crates/engine/src/board/protocol/data.rs");
    let items: Vec<&str> = data.lines().filter(|l| !l.starts_with("//!")).collect();
    read("crates/engine/src/board/protocol.rs") + "\n" + &items.join("\n")
}

impl Protocol {
    fn read() -> Protocol {
        Protocol::from_text(&protocol_text())
    }

    fn from_text(text: &str) -> Protocol {
        let file = syn::parse_file(text).expect("protocol.rs parses");
        let mut defs = BTreeMap::new();
        for item in file.items {
            match item {
                Item::Struct(s) if derives_serde(&s.attrs) => {
                    defs.insert(s.ident.to_string(), Def::Struct(fields(&s.fields)));
                }
                Item::Enum(e) if derives_serde(&e.attrs) => {
                    let snake_case =
                        serde_value(&e.attrs, "rename_all").as_deref() == Some("snake_case");
                    let variants = e
                        .variants
                        .iter()
                        .map(|v| {
                            let name = serde_value(&v.attrs, "rename").unwrap_or_else(|| {
                                let n = v.ident.to_string();
                                if snake_case {
                                    snake(&n)
                                } else {
                                    n
                                }
                            });
                            let shape = match &v.fields {
                                Fields::Named(_) => Shape::Fields(fields(&v.fields)),
                                Fields::Unnamed(u) => match inner(&u.unnamed[0].ty) {
                                    (Some(t), _) => Shape::Newtype(t),
                                    (None, _) => Shape::Unit,
                                },
                                Fields::Unit => Shape::Unit,
                            };
                            (name, shape)
                        })
                        .collect();
                    let tagged = serde_value(&e.attrs, "tag").as_deref() == Some("type");
                    defs.insert(e.ident.to_string(), Def::Enum { tagged, variants });
                }
                _ => {}
            }
        }
        assert!(
            defs.contains_key("Reply") && defs.contains_key("State"),
            "{defs:?}"
        );
        Protocol { defs }
    }

    /// The fields of an object of type `name` (a struct, or an externally tagged enum whose
    /// variants' names are its keys), flattened fields expanded.
    fn fields_of(&self, name: &str) -> Vec<Field> {
        match self.defs.get(name) {
            Some(Def::Struct(fs)) => self.expand(fs),
            Some(Def::Enum {
                tagged: false,
                variants,
            }) => variants
                .iter()
                .map(|(n, _)| Field {
                    name: n.clone(),
                    ty: None,
                    flatten: false,
                    map: false,
                })
                .collect(),
            other => panic!("{name}: not an object type of protocol.rs ({other:?})"),
        }
    }

    fn expand(&self, fs: &[Field]) -> Vec<Field> {
        let mut out = Vec::new();
        for f in fs {
            if f.flatten {
                out.extend(self.fields_of(f.ty.as_deref().expect("a flattened protocol type")));
            } else {
                out.push(f.clone());
            }
        }
        out
    }

    /// The variants of a tagged enum (`Request`, `Reply`): each message's `type` and fields.
    fn messages(&self, name: &str) -> Vec<(String, Vec<Field>)> {
        let Some(Def::Enum {
            tagged: true,
            variants,
        }) = self.defs.get(name)
        else {
            panic!("{name} is not a tagged enum")
        };
        variants
            .iter()
            .map(|(n, shape)| {
                let fs = match shape {
                    Shape::Fields(fs) => self.expand(fs),
                    Shape::Newtype(t) => self.fields_of(t),
                    Shape::Unit => Vec::new(),
                };
                (n.clone(), fs)
            })
            .collect()
    }

    /// Every name an object with `fields` may carry, its nested objects' too, and the names
    /// of its map fields (whose own keys are data).
    fn names_within(
        &self,
        fields: &[Field],
        names: &mut BTreeSet<String>,
        maps: &mut BTreeSet<String>,
    ) {
        for f in fields {
            names.insert(f.name.clone());
            if f.map {
                maps.insert(f.name.clone());
            }
            if let Some(t) = &f.ty {
                if self.is_object(t) {
                    let inner = self.fields_of(t);
                    self.names_within(&inner, names, maps);
                }
            }
        }
    }

    /// Whether a field of type `name` holds an object with fields of its own (not a string,
    /// as `Player`'s values are).
    fn is_object(&self, name: &str) -> bool {
        match self.defs.get(name) {
            Some(Def::Struct(_)) => true,
            Some(Def::Enum {
                tagged: false,
                variants,
            }) => variants.iter().any(|(_, s)| !matches!(s, Shape::Unit)),
            _ => false,
        }
    }
}

fn names(fields: &[Field]) -> BTreeSet<String> {
    fields.iter().map(|f| f.name.clone()).collect()
}

// ---------- the page's side: web/js/types.js ----------

/// The text from `s`'s first character, an opening brace, to its matching close, braces
/// included; and the rest.
fn braced(s: &str) -> (&str, &str) {
    assert!(s.starts_with('{'), "not a brace: {s:.40}");
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return (&s[..=i], &s[i + 1..]);
                }
            }
            _ => {}
        }
    }
    panic!("an unclosed brace: {s:.60}")
}

/// The keys of a TypeScript object type `{a: T, b?: {c: U}}` with their types: `a`, `b`
/// (not the nested `c`).
fn object_keys(literal: &str) -> BTreeMap<String, String> {
    let body = &literal[1..literal.len() - 1];
    let mut keys = BTreeMap::new();
    let mut depth = 0;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, c) in body.char_indices() {
        match c {
            '{' | '[' | '(' | '<' => depth += 1,
            '}' | ']' | ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    for p in parts {
        let (key, ty) = p.split_once(':').unwrap_or((p, ""));
        let key = key.trim().trim_end_matches('?');
        if !key.is_empty() {
            keys.insert(key.to_string(), ty.trim().to_string());
        }
    }
    keys
}

/// types.js's typedefs: each `{object}` typedef's `@property` names, and each typedef of
/// object literals (a union, as `Request`) as the literals' key sets.
struct Typedefs {
    objects: BTreeMap<String, BTreeSet<String>>,
    unions: BTreeMap<String, Vec<BTreeMap<String, String>>>,
}

impl Typedefs {
    fn read() -> Typedefs {
        Typedefs::from_text(&read("web/js/types.js"))
    }

    fn from_text(text: &str) -> Typedefs {
        let mut objects = BTreeMap::new();
        let mut unions = BTreeMap::new();
        for block in text.split("/**").skip(1) {
            let block = block.split("*/").next().unwrap();
            let block: String = block
                .lines()
                .map(|l| l.trim_start().trim_start_matches('*').trim())
                .collect::<Vec<_>>()
                .join(" ");
            let Some(at) = block.find("@typedef ") else {
                continue;
            };
            let (ty, rest) = braced(block[at + "@typedef ".len()..].trim_start());
            let name = rest.split_whitespace().next().unwrap().to_string();
            if ty == "{object}" {
                let mut props = BTreeSet::new();
                let mut rest = rest;
                while let Some(i) = rest.find("@property ") {
                    let (_, after) = braced(rest[i + "@property ".len()..].trim_start());
                    let prop = after.trim_start().trim_start_matches('[');
                    let end = prop
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(prop.len());
                    props.insert(prop[..end].to_string());
                    rest = after;
                }
                objects.insert(name, props);
            } else {
                let inner = &ty[1..ty.len() - 1];
                let mut literals = Vec::new();
                let mut rest = inner;
                while let Some(i) = rest.find('{') {
                    let (lit, after) = braced(&rest[i..]);
                    literals.push(object_keys(lit));
                    rest = after;
                }
                unions.insert(name, literals);
            }
        }
        Typedefs { objects, unions }
    }
}

/// Each typedef of types.js that mirrors protocol.rs, with the types it mirrors: a struct, or
/// a `Reply` variant (`Reply::State`), whose typedef has `type` too. Several types to one
/// typedef: its properties are theirs together.
const MIRRORS: &[(&str, &[&str])] = &[
    ("Move", &["LegalMove", "HistoryMove"]),
    ("TreeNode", &["TreeNode"]),
    ("NodeReview", &["NodeReview"]),
    ("ReviewSummary", &["ReviewSummary"]),
    ("ClockState", &["ClockState"]),
    ("Level", &["Level"]),
    ("GameResult", &["GameEnd"]),
    ("Counts", &["Counts"]),
    ("Egdb", &["Verdict"]),
    ("SideReport", &["SideReport"]),
    ("PdnGameTags", &["PdnGameTags"]),
    ("MessageLimits", &["MessageLimits"]),
    ("ClockSpec", &["ClockSpec"]),
    ("ClockResume", &["ClockResume"]),
    ("PuzzleState", &["PuzzleState"]),
    ("PracticeState", &["PracticeState"]),
    ("PartialLoad", &["PartialLoad"]),
    ("ChapterInfo", &["ChapterInfo"]),
    ("ExplorerMove", &["ExplorerMove"]),
    ("MoveVerdict", &["MoveVerdict"]),
    ("ExplorerMsg", &["Reply::explorer"]),
    ("HelloMsg", &["Reply::hello"]),
    ("StateMsg", &["Reply::state"]),
    ("InfoMsg", &["Reply::info"]),
    (
        "ReviewPlyMsg",
        &["Reply::review_ply", "Reply::retry_result"],
    ),
    ("ReviewDoneMsg", &["Reply::review_done"]),
    ("PdnMsg", &["Reply::pdn"]),
    ("GamesMsg", &["Reply::games"]),
    ("ErrorMsg", &["Reply::error"]),
    ("PongMsg", &["Reply::pong"]),
];

/// protocol.rs's types that no typedef mirrors alone, and why.
const NOT_MIRRORED: &[&str] = &[
    "Player",       // a string, "human" or "engine"
    "Limit",        // flattened into Level
    "BudgetFields", // flattened into the requests `review` and `retry`
    "Judgement",    // the fields of `review_ply` and `retry_result` (ReviewPlyMsg)
    "SearchInfo",   // the fields of `info` (InfoMsg)
    "State",        // the fields of `state` (StateMsg)
    "Request",      // types.js's `Request`, variant by variant
    "Reply",        // the typedefs `...Msg`, variant by variant
];

/// The fields `mirror` (a struct name, or `Reply::type`) has in JSON.
fn mirrored_fields(p: &Protocol, mirror: &str) -> BTreeSet<String> {
    match mirror.strip_prefix("Reply::") {
        Some(kind) => {
            let (_, fs) = p
                .messages("Reply")
                .into_iter()
                .find(|(n, _)| n == kind)
                .unwrap_or_else(|| panic!("Reply has no variant '{kind}'"));
            let mut set = names(&fs);
            set.insert("type".into());
            set
        }
        None => names(&p.fields_of(mirror)),
    }
}

/// The differences between the page's and the Rust side's messages, one line each.
fn typedef_differences(p: &Protocol, t: &Typedefs) -> Vec<String> {
    let mut out = Vec::new();
    let mut covered: BTreeSet<&str> = NOT_MIRRORED.iter().copied().collect();
    for (js, mirrors) in MIRRORS {
        let mut rust = BTreeSet::new();
        for m in *mirrors {
            covered.insert(m.split("::").next().unwrap());
            if let Some(kind) = m.strip_prefix("Reply::") {
                covered.insert(kind);
            }
            rust.extend(mirrored_fields(p, m));
        }
        let Some(props) = t.objects.get(*js) else {
            out.push(format!(
                "types.js has no typedef {js} (protocol.rs's {mirrors:?})"
            ));
            continue;
        };
        for f in rust.difference(props) {
            out.push(format!(
                "types.js's {js} lacks '{f}', a field of protocol.rs's {mirrors:?}"
            ));
        }
        for f in props.difference(&rust) {
            out.push(format!(
                "types.js's {js} has '{f}', which protocol.rs's {mirrors:?} lack"
            ));
        }
    }
    for name in p.defs.keys() {
        if !covered.contains(name.as_str()) {
            out.push(format!(
                "protocol.rs's {name} is in no typedef of types.js: add one (and to MIRRORS here)"
            ));
        }
    }
    for (kind, _) in p.messages("Reply") {
        if !covered.contains(kind.as_str()) {
            out.push(format!(
                "the reply '{kind}' has no typedef in types.js (MIRRORS here)"
            ));
        }
    }
    // Each request as one literal of the union `Request`, found by its `type`.
    let requests = t.unions.get("Request").expect("types.js's Request");
    let kinds: BTreeSet<String> = p.messages("Request").into_iter().map(|(k, _)| k).collect();
    for literal in requests {
        let ty = literal.get("type").map(String::as_str).unwrap_or("");
        if !kinds.contains(ty.trim_matches('"')) {
            out.push(format!(
                "types.js's Request has {{type: {ty}, ...}}, which protocol.rs's Request lacks"
            ));
        }
    }
    for (kind, fs) in p.messages("Request") {
        let mut rust = names(&fs);
        rust.insert("type".into());
        let tag = format!("\"{kind}\"");
        let page: Vec<BTreeSet<String>> = requests
            .iter()
            .filter(|l| l.get("type") == Some(&tag))
            .map(|l| l.keys().cloned().collect())
            .collect();
        match page.as_slice() {
            [one] if *one == rust => {}
            [one] => out.push(format!(
                "types.js's request {kind} has the fields {one:?}, protocol.rs's {rust:?}"
            )),
            _ => out.push(format!(
                "types.js's Request has {} literals {{type: {tag}, ...}}, not one",
                page.len()
            )),
        }
    }
    out
}

// ---------- the docs: docs/BOARD.md ----------

/// The quoted keys (`"name":`) in `text`, the contents of the maps named in `maps` left out.
fn doc_keys(text: &str, maps: &BTreeSet<String>) -> BTreeSet<String> {
    let mut text = text.to_string();
    for m in maps {
        let key = format!("\"{m}\":{{");
        let mut from = 0;
        while let Some(i) = text[from..].find(&key) {
            let open = from + i + key.len() - 1;
            let (inside, _) = braced(&text[open..]);
            let len = inside.len();
            text.replace_range(open..open + len, "{}");
            from = open + 2;
        }
    }
    let mut keys = BTreeSet::new();
    for (i, _) in text.match_indices("\":") {
        let before = &text[..i];
        let start = before.rfind('"').unwrap();
        let key = &before[start + 1..];
        if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            keys.insert(key.to_string());
        }
    }
    keys
}

/// BOARD.md's text for each message type: the rows of its two tables whose first cell names
/// the type (`{"type":"X"...`), and for `state` the JSON block after the tables.
fn doc_sections(doc: &str) -> BTreeMap<String, (String, String)> {
    let mut out: BTreeMap<String, (String, String)> = BTreeMap::new();
    for line in doc.lines().filter(|l| l.starts_with("| `{\"type\":")) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let first = cells[0];
        for (i, _) in first.match_indices("\"type\":\"") {
            let rest = &first[i + "\"type\":\"".len()..];
            let kind = &rest[..rest.find('"').unwrap()];
            let e = out.entry(kind.to_string()).or_default();
            e.0 += first;
            e.0 += "\n";
            e.1 += line;
            e.1 += "\n";
        }
    }
    let at = doc
        .find("`state`:\n```json\n")
        .expect("BOARD.md's state block");
    let block = &doc[at..];
    let block = &block[..block[12..].find("```").unwrap() + 15];
    let e = out.entry("state".into()).or_default();
    e.0 += block;
    e.1 += block;
    out
}

fn doc_differences(p: &Protocol, doc: &str) -> Vec<String> {
    let sections = doc_sections(doc);
    let mut out = Vec::new();
    for enum_name in ["Request", "Reply"] {
        for (kind, fs) in p.messages(enum_name) {
            if !doc.contains(&format!("{{\"type\":\"{kind}\"")) {
                out.push(format!(
                    "BOARD.md never shows the message {{\"type\":\"{kind}\"}}"
                ));
                continue;
            }
            let mut all = BTreeSet::new();
            let mut maps = BTreeSet::new();
            p.names_within(&fs, &mut all, &mut maps);
            if all.is_empty() {
                continue;
            }
            let Some((examples, rows)) = sections.get(&kind) else {
                out.push(format!(
                    "BOARD.md has no row for '{kind}', whose fields are {all:?}"
                ));
                continue;
            };
            // Every field, nested ones too, named in its rows: in an example or in the text.
            for f in &all {
                if !rows.contains(&format!("\"{f}\"")) && !rows.contains(&format!("`{f}`")) {
                    out.push(format!("BOARD.md's '{kind}' never names its field '{f}'"));
                }
            }
            // Every key of its examples a field of it.
            all.insert("type".into());
            for k in doc_keys(examples, &maps).difference(&all) {
                out.push(format!("BOARD.md's '{kind}' shows '{k}', which protocol.rs's {enum_name}::{kind} lacks"));
            }
        }
    }
    out
}

#[test]
fn the_pages_typedefs_are_the_protocols_types() {
    let diff = typedef_differences(&Protocol::read(), &Typedefs::read());
    assert!(
        diff.is_empty(),
        "web/js/types.js and protocol.rs differ:\n{}",
        diff.join("\n")
    );
}

#[test]
fn board_md_shows_every_field_of_every_message_and_no_other() {
    let diff = doc_differences(&Protocol::read(), &read("docs/BOARD.md"));
    assert!(
        diff.is_empty(),
        "docs/BOARD.md and protocol.rs differ:\n{}",
        diff.join("\n")
    );
}

/// The checks catch a field on one side only: one added to the Rust types, to a typedef and
/// to the docs in turn.
#[test]
fn a_field_on_one_side_only_is_caught() {
    let rust = protocol_text();
    let js = read("web/js/types.js");
    let doc = read("docs/BOARD.md");

    let more = rust.replace(
        "pub struct Counts {\n",
        "pub struct Counts {\n    pub extra: u32,\n",
    );
    assert_ne!(more, rust);
    let p = Protocol::from_text(&more);
    let t = Typedefs::read();
    assert!(typedef_differences(&p, &t)
        .iter()
        .any(|d| d.contains("'extra'")));
    assert!(doc_differences(&p, &doc)
        .iter()
        .any(|d| d.contains("'extra'")));

    let renamed = js.replace(
        "{type: \"delete\", node: number}",
        "{type: \"delete\", id: number}",
    );
    assert_ne!(renamed, js);
    let diff = typedef_differences(&Protocol::read(), &Typedefs::from_text(&renamed));
    assert!(
        diff.iter().any(|d| d.contains("request delete")),
        "{diff:?}"
    );

    let more_js = js.replace(
        " * @property {number} forty_limit\n",
        " * @property {number} forty_limit\n * @property {number} extra\n",
    );
    assert_ne!(more_js, js);
    let t = Typedefs::from_text(&more_js);
    assert!(typedef_differences(&Protocol::read(), &t)
        .iter()
        .any(|d| d.contains("'extra'")));

    let more_doc = doc.replace("\"forty_limit\":80,", "\"forty_limit\":80,\"extra\":1,");
    assert_ne!(more_doc, doc);
    assert!(doc_differences(&Protocol::read(), &more_doc)
        .iter()
        .any(|d| d.contains("'extra'")));
}
