//! The endgame tables in the browser: a `Store` over the files the page's host serves beside
//! the page (`egdb/`, written by `poolshark egdb web`), named by its list (`egdb::manifest`),
//! which the host hands over when the board is made. A file is read, synchronously, when a
//! probe first needs its group: through the import `env.poolshark_file_len(ptr, len)` (the
//! file's bytes, or -1 with the reason logged by the host) then
//! `env.poolshark_file_read(ptr, len, dst)` (its bytes copied to `dst`). The service worker
//! keeps the files, so a practice works offline.

use poolshark_engine::egdb::manifest::Manifest;
use poolshark_engine::egdb::{pack, Store};

/// The tables a page's host serves.
pub struct PageStore {
    list: Manifest,
}

impl PageStore {
    pub fn new(list: Manifest) -> PageStore {
        PageStore { list }
    }
}

impl Store for PageStore {
    fn exists(&self, name: &str) -> Result<bool, String> {
        Ok(self.list.files.contains_key(name))
    }

    fn read(&self, name: &str, max: u64) -> Result<Vec<u8>, String> {
        let entry = *self
            .list
            .files
            .get(name)
            .ok_or_else(|| self.place(name) + ": not on this page")?;
        if entry.bytes > max {
            return Err(format!(
                "{}: {} bytes, more than a table of it can be",
                self.place(name),
                entry.bytes
            ));
        }
        let (served, len) = self.list.served(name).expect("listed");
        let bytes =
            files::read(&served, len).map_err(|why| format!("{}: {why}", self.place(name)))?;
        match entry.zst {
            Some(_) => pack::unzstd(&bytes, entry.bytes as usize)
                .map_err(|why| format!("{}: {why}", self.place(name))),
            None => Ok(bytes),
        }
    }

    fn save(&self, name: &str, _bytes: &[u8]) -> Result<(), String> {
        Err(format!(
            "{}: the page's tables are read-only",
            self.place(name)
        ))
    }

    fn place(&self, name: &str) -> String {
        format!("egdb/{name} on the page's host")
    }
}

/// Reading a file the host serves.
pub mod files {
    /// The `len` bytes of the file `name` (as the list says), or why not.
    pub fn read(name: &str, len: u64) -> Result<Vec<u8>, String> {
        let got = host_len(name);
        if got < 0.0 {
            return Err("could not be fetched (the page's console says why)".into());
        }
        if got as u64 != len {
            return Err(format!(
                "{got} bytes fetched, {len} listed (a build half replaced?)"
            ));
        }
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(len as usize)
            .map_err(|_| format!("no memory for {len} bytes"))?;
        bytes.resize(len as usize, 0);
        host_read(name, &mut bytes);
        Ok(bytes)
    }

    #[cfg(target_arch = "wasm32")]
    #[link(wasm_import_module = "env")]
    extern "C" {
        fn poolshark_file_len(ptr: *const u8, len: usize) -> f64;
        fn poolshark_file_read(ptr: *const u8, len: usize, dst: *mut u8);
    }

    /// The host fetches the file and keeps it for `host_read`: its bytes, or -1.
    #[cfg(target_arch = "wasm32")]
    fn host_len(name: &str) -> f64 {
        // SAFETY: the host reads `len` bytes of the name at `ptr` before the call returns.
        unsafe { poolshark_file_len(name.as_ptr(), name.len()) }
    }

    /// The host copies the file it fetched last into `dst` (of its length) and forgets it.
    #[cfg(target_arch = "wasm32")]
    fn host_read(name: &str, dst: &mut [u8]) {
        // SAFETY: the host writes at most the length it returned for this name, which is
        // `dst.len()` (checked by `read`), before the call returns.
        unsafe { poolshark_file_read(name.as_ptr(), name.len(), dst.as_mut_ptr()) }
    }

    /// Natively (the crate's tests) the files are what a test put here.
    #[cfg(not(target_arch = "wasm32"))]
    pub mod served {
        use std::cell::RefCell;
        use std::collections::HashMap;

        thread_local! {
            pub(super) static FILES: RefCell<HashMap<String, Vec<u8>>> = RefCell::new(HashMap::new());
        }

        /// Serve `bytes` as `name` on this thread.
        pub fn put(name: &str, bytes: Vec<u8>) {
            FILES.with(|f| f.borrow_mut().insert(name.to_string(), bytes));
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn host_len(name: &str) -> f64 {
        served::FILES.with(|f| f.borrow().get(name).map_or(-1.0, |b| b.len() as f64))
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn host_read(name: &str, dst: &mut [u8]) {
        served::FILES.with(|f| dst.copy_from_slice(&f.borrow()[name]));
    }
}

#[cfg(test)]
mod tests {
    use super::files::served;
    use super::*;

    fn store() -> PageStore {
        PageStore::new(
            Manifest::parse(
                r#"{"pieces":2,"files":{"b01w01.egdb":{"bytes":4},"lone13.egdb":{"bytes":9,"zst":3}}}"#,
            )
            .unwrap(),
        )
    }

    #[test]
    fn a_listed_file_is_read_as_served() {
        served::put("b01w01.egdb", vec![1, 2, 3, 4]);
        let s = store();
        assert!(s.exists("b01w01.egdb").unwrap());
        assert!(!s.exists("b02w02.egdb").unwrap());
        assert_eq!(s.read("b01w01.egdb", 100).unwrap(), vec![1, 2, 3, 4]);
    }

    #[test]
    fn what_cannot_be_read_says_why_and_where() {
        let s = store();
        // Not listed, larger than allowed, not served, served at another length.
        let e = s.read("b02w02.egdb", 100).unwrap_err();
        assert!(
            e.contains("egdb/b02w02.egdb") && e.contains("not on this page"),
            "{e}"
        );
        assert!(s.read("b01w01.egdb", 3).unwrap_err().contains("more than"));
        assert!(s
            .read("lone13.egdb", 100)
            .unwrap_err()
            .contains("could not be fetched"));
        served::put("b01w01.egdb", vec![1, 2]);
        let e = s.read("b01w01.egdb", 100).unwrap_err();
        assert!(e.contains("2 bytes fetched, 4 listed"), "{e}");
        // A compressed file that is not a zstd frame.
        served::put("lone13.egdb.zst", vec![1, 2, 3]);
        assert!(s.read("lone13.egdb", 100).is_err());
        assert!(s
            .save("b01w01.egdb", &[])
            .unwrap_err()
            .contains("read-only"));
    }
}
