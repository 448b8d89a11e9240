//! The list of table files a static host serves (`index.json` beside them): which files there
//! are, how many bytes each holds, and which are stored zstd-compressed whole (the lone-king
//! table, one byte a state, compresses about 37 times; a group's file is compressed block by
//! block already). `poolshark egdb web` writes it; the browser's store (crates/wasm) reads
//! the files it names, and only those.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The name of the list in the folder of files it lists.
pub const NAME: &str = "index.json";

/// The suffix of a file stored compressed whole: `lone13.egdb` is kept as `lone13.egdb.zst`.
pub const ZST: &str = ".zst";

/// What a folder of table files for the page holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Every group of up to this many pieces is there.
    pub pieces: u32,
    /// Each table file by its name in a `Store` (`group_file::name`, `lone_king::NAME`).
    pub files: BTreeMap<String, FileEntry>,
}

/// One table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// The table file's bytes.
    pub bytes: u64,
    /// Stored compressed whole, as the name plus `ZST`, of this many bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zst: Option<u64>,
}

impl Manifest {
    /// The list from its JSON text, or why it cannot be used: a name that is not a plain file
    /// name (a host must never be asked for a path of the list's choosing) is refused.
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let m: Manifest =
            serde_json::from_str(text).map_err(|e| format!("{NAME} cannot be read: {e}"))?;
        if let Some(bad) = m.files.keys().find(|n| !plain_name(n)) {
            return Err(format!(
                "{NAME} names '{bad}', which is not a table file's name"
            ));
        }
        Ok(m)
    }

    /// The file the host serves for table file `name`, and its bytes there.
    pub fn served(&self, name: &str) -> Option<(String, u64)> {
        let e = self.files.get(name)?;
        Some(match e.zst {
            Some(z) => (format!("{name}{ZST}"), z),
            None => (name.to_string(), e.bytes),
        })
    }
}

/// A table file's name: letters, digits and dots, ending in `.egdb`.
fn plain_name(name: &str) -> bool {
    name.ends_with(".egdb")
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-')
        && !name.contains("..")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_reads_back_and_names_what_the_host_serves() {
        let mut m = Manifest {
            pieces: 4,
            ..Manifest::default()
        };
        m.files.insert(
            "b01w01.egdb".into(),
            FileEntry {
                bytes: 156,
                zst: None,
            },
        );
        m.files.insert(
            "lone13.egdb".into(),
            FileEntry {
                bytes: 3_739_868,
                zst: Some(101_157),
            },
        );
        let text = serde_json::to_string(&m).unwrap();
        assert_eq!(Manifest::parse(&text).unwrap(), m);
        assert_eq!(m.served("b01w01.egdb"), Some(("b01w01.egdb".into(), 156)));
        assert_eq!(
            m.served("lone13.egdb"),
            Some(("lone13.egdb.zst".into(), 101_157))
        );
        assert_eq!(m.served("b02w02.egdb"), None);
    }

    #[test]
    fn a_list_naming_a_path_or_another_file_is_refused() {
        for bad in [
            "../secret.egdb",
            "/etc/x.egdb",
            "a/b.egdb",
            "index.json",
            ".egdb",
        ] {
            let text = format!(r#"{{"pieces":2,"files":{{"{bad}":{{"bytes":1}}}}}}"#);
            let e = Manifest::parse(&text).unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
        assert!(Manifest::parse("{\"pieces\":2}").is_err());
        assert!(Manifest::parse("not json").unwrap_err().contains(NAME));
    }
}
