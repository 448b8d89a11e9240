//! Reading and writing the files a user names: weights, books, openings, tuning data and
//! every output file. Nothing else in the crate opens a user's path.
//!
//! A path can name anything, so reading checks it before trusting it: only a regular file is
//! read (a FIFO, a device such as `/dev/zero` or a directory is refused before it is opened,
//! so a FIFO cannot block us), and never more than the limit for its `Kind`, even if the file
//! grows while it is read. A reader that knows how large its file can be (an endgame table
//! from its group's size) passes that bound too, and the file is refused before it is read.
//! The buffer is allocated fallibly: a file that fits the limits but not in memory is an
//! error, never an abort. Writing refuses a target that exists and is not a regular file (a
//! symlink, FIFO, device or directory): the atomic `save` would otherwise replace it with a
//! regular file, and a streaming `create` would write into a device. Refusing a symlink,
//! rather than writing through it, keeps a save from landing somewhere the user did not name.
//! A save killed part way (SIGKILL) leaves its temporary file; the next save of that target
//! removes those of processes no longer running.

use std::fmt;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

const MIB: u64 = 1 << 20;

/// What a file holds, which sets how large it may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An evaluation weights file (`tuning/weights.txt`, about 1 KiB; a network of the
    /// widest width, 512, about 140 KiB).
    Weights,
    /// A match openings file, one FEN a line (the built-in one is 11 KiB).
    Openings,
    /// An opening book (the built-in one is 122 KiB, 5,000 positions).
    Book,
    /// Tuning data, `FEN ; score` lines (the shipped set is 14 MiB).
    TuneData,
    /// Packed tuning data (`tune::packed`, 16 bytes a position: 30 M positions are 480 MB).
    PackedData,
    /// One group of an endgame table (the largest 6-piece group is 250 MB, 7-piece 2.8 GB).
    Egdb,
    /// A pattern trainer's checkpoint (`tune::learn`, about 4 MiB; 128 MB for the big
    /// patterns).
    Checkpoint,
}

impl Kind {
    /// The largest file of this kind that is read: every limit, in one place. Each is far
    /// above any real file, and far below what would exhaust memory.
    pub const fn limit(self) -> u64 {
        match self {
            Kind::Weights => 64 * MIB,
            Kind::Openings => 16 * MIB,
            Kind::Book => 64 * MIB,
            Kind::TuneData => 1024 * MIB,
            Kind::PackedData => 4096 * MIB,
            Kind::Egdb => 16 * 1024 * MIB,
            Kind::Checkpoint => 512 * MIB,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Kind::Weights => "a weights file",
            Kind::Openings => "an openings file",
            Kind::Book => "a book",
            Kind::TuneData => "tuning data",
            Kind::PackedData => "packed tuning data",
            Kind::Egdb => "an endgame table",
            Kind::Checkpoint => "a training checkpoint",
        }
    }
}

/// Why a file could not be read or written. Its `Display` leads with the path.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    pub why: Why,
}

#[derive(Debug)]
pub enum Why {
    /// The path names something other than a regular file ("a FIFO", "a directory"...).
    NotRegular(&'static str),
    TooLarge(Kind),
    /// Larger than what the reader knows such a file can hold (`len`, `max` bytes).
    Oversize {
        len: u64,
        max: u64,
    },
    /// The memory to read it into could not be had.
    NoMemory(u64),
    NotText,
    /// A line longer than this many bytes (`lines`).
    LineTooLong(usize),
    /// An output's folder is not there (or is not a folder).
    NoFolder,
    Io(io::Error),
}

impl FileError {
    fn new(path: &Path, why: Why) -> FileError {
        FileError {
            path: path.to_path_buf(),
            why,
        }
    }

    fn io(path: &Path, e: io::Error) -> FileError {
        FileError::new(path, Why::Io(e))
    }

    /// The reason alone, without the path.
    pub fn reason(&self) -> String {
        match &self.why {
            Why::NotRegular(what) => format!("not a regular file ({what})"),
            Why::TooLarge(kind) => format!(
                "larger than {} MiB, the limit for {}",
                kind.limit() / MIB,
                kind.noun()
            ),
            Why::Oversize { len, max } => format!(
                "{len} bytes, larger than the {max} bytes such a file can hold (corrupt, or \
                 not this file)"
            ),
            Why::NoMemory(len) => format!("not enough memory to read its {len} bytes"),
            Why::NotText => "not UTF-8 text".to_string(),
            Why::LineTooLong(max) => format!("a line is longer than {max} bytes"),
            Why::NoFolder => "its folder does not exist".to_string(),
            Why::Io(e) => e.to_string(),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason())
    }
}

impl std::error::Error for FileError {}

/// What a non-regular file is, in words.
fn describe(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

fn regular(path: &Path, meta: &Metadata) -> Result<(), FileError> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(FileError::new(path, Why::NotRegular(describe(meta))))
    }
}

/// The bytes of the regular file at `path` (a symlink to one is followed), at most
/// `kind.limit()` of them.
pub fn read(path: &Path, kind: Kind) -> Result<Vec<u8>, FileError> {
    read_at_most(path, kind, kind.limit())
}

/// `read`, refusing a file of more than `max` bytes (as well as over `kind.limit()`) before
/// reading it.
pub fn read_at_most(path: &Path, kind: Kind, max: u64) -> Result<Vec<u8>, FileError> {
    let too_large = |len: u64| {
        let why = if len > kind.limit() {
            Why::TooLarge(kind)
        } else {
            Why::Oversize { len, max }
        };
        FileError::new(path, why)
    };
    // Checked before opening: opening a FIFO for reading blocks until a writer appears.
    let meta = std::fs::metadata(path).map_err(|e| FileError::io(path, e))?;
    regular(path, &meta)?;
    let limit = kind.limit().min(max);
    if meta.len() > limit {
        return Err(too_large(meta.len()));
    }
    let file = File::open(path).map_err(|e| FileError::io(path, e))?;
    // The path may have been replaced since it was checked; this checks what was opened.
    regular(path, &file.metadata().map_err(|e| FileError::io(path, e))?)?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(meta.len() as usize)
        .map_err(|_| FileError::new(path, Why::NoMemory(meta.len())))?;
    // One byte past the limit tells a file that grew while read from one that fits.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The text of the regular file at `path`, as `read` checks it.
pub fn read_to_string(path: &Path, kind: Kind) -> Result<String, FileError> {
    String::from_utf8(read(path, kind)?).map_err(|_| FileError::new(path, Why::NotText))
}

/// Read one line of at most `max` bytes into `line` (without its end). Returns the line's
/// full length (a `\r` before the `\n` is not part of it), or `None` at the end of input;
/// the bytes past `max` are read and dropped. Every line reader of the crate uses it: files
/// (`lines`) and the match client's engine output.
pub fn read_line_capped(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<usize>> {
    line.clear();
    let mut length = 0usize;
    // The line's last byte so far, to drop the `\r` of a "\r\n" end from the length too.
    let mut last = None;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok((length > 0).then_some(length));
        }
        let (chunk, used, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        length += chunk.len();
        last = chunk.last().copied().or(last);
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        input.consume(used);
        if end {
            if last == Some(b'\r') {
                length -= 1;
                if line.len() > length {
                    line.pop();
                }
            }
            return Ok(Some(length));
        }
    }
}

/// The lines of the regular file at `path` (a symlink to one is followed), read as a stream:
/// memory holds one line, never the file, so the file may be of any size, but no line may be
/// longer than `max_line` bytes. Line breaks (`\n` or `\r\n`) are not part of the lines,
/// as with `str::lines`. Each line must be UTF-8. The first error ends the lines.
pub fn lines(path: &Path, max_line: usize) -> Result<Lines, FileError> {
    let meta = std::fs::metadata(path).map_err(|e| FileError::io(path, e))?;
    regular(path, &meta)?;
    let file = File::open(path).map_err(|e| FileError::io(path, e))?;
    regular(path, &file.metadata().map_err(|e| FileError::io(path, e))?)?;
    Ok(Lines {
        path: path.to_path_buf(),
        reader: io::BufReader::new(file),
        max_line,
        failed: false,
    })
}

/// The lines of a file: see `lines`.
pub struct Lines {
    path: PathBuf,
    reader: io::BufReader<File>,
    max_line: usize,
    failed: bool,
}

impl Iterator for Lines {
    type Item = Result<String, FileError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let mut buf = Vec::new();
        let line = match read_line_capped(&mut self.reader, &mut buf, self.max_line) {
            Ok(None) => return None,
            Ok(Some(length)) if length > self.max_line => {
                Err(FileError::new(&self.path, Why::LineTooLong(self.max_line)))
            }
            Ok(Some(_)) => {
                String::from_utf8(buf).map_err(|_| FileError::new(&self.path, Why::NotText))
            }
            Err(e) => Err(FileError::io(&self.path, e)),
        };
        self.failed = line.is_err();
        Some(line)
    }
}

/// Refuse an existing output target that is not a regular file. A symlink is refused too,
/// whatever it points to (`symlink_metadata` does not follow it). `save` and `create` check
/// this themselves; a long job calls it first, so a bad `--out` fails before the work. A new
/// file's folder must be there: nothing creates it.
pub fn check_output(path: &Path) -> Result<(), FileError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => regular(path, &meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => {
                Err(FileError::new(path, Why::NoFolder))
            }
            _ => Ok(()),
        },
        Err(e) => Err(FileError::io(path, e)),
    }
}

/// Whether `a` and `b` name one file that exists: `./c.txt` and `c.txt`, a symlink and its
/// target, and (on Unix, by device and inode) two hard links all count as one. A path that
/// does not exist yet names no file, so it is never the same as another.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

/// Whether two outputs `a` and `b` name one file, there or not yet: `same_file` for files
/// that exist, else the same name in the same folder (`./x` and `x`, by the folder's
/// canonical path), so that a command never writes two of its outputs to one file.
pub fn same_output(a: &Path, b: &Path) -> bool {
    fn resolved(p: &Path) -> Option<PathBuf> {
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(dir).ok()?.join(p.file_name()?))
    }
    same_file(a, b) || resolved(a).is_some_and(|x| Some(x) == resolved(b))
}

/// An output that is also one of the command's inputs: writing it would replace what is
/// being read. Each side by its option name (`--out`, `--data`) and its path as given.
#[derive(Debug)]
pub struct OutIsInput {
    pub out: (&'static str, PathBuf),
    pub input: (&'static str, PathBuf),
}

impl fmt::Display for OutIsInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ((o, out), (i, input)) = (&self.out, &self.input);
        write!(f, "{o} {} is also an input", out.display())?;
        if out != input || o != i {
            write!(f, " ({i} {})", input.display())?;
        }
        write!(f, ": name another file")
    }
}

impl std::error::Error for OutIsInput {}

/// Refuse an output that names the same file as any of `inputs` (`same_file`), before any
/// work, so that no command writes its result over what it reads. Every command that takes
/// an output and inputs checks each output it writes with this.
pub fn check_not_input<'a>(
    out: (&'static str, &Path),
    inputs: impl IntoIterator<Item = (&'static str, &'a Path)>,
) -> Result<(), OutIsInput> {
    for (name, path) in inputs {
        if same_file(out.1, path) {
            return Err(OutIsInput {
                out: (out.0, out.1.to_path_buf()),
                input: (name, path.to_path_buf()),
            });
        }
    }
    Ok(())
}

/// Tells the temporary files of concurrent saves in one process apart.
static SAVES: AtomicU64 = AtomicU64::new(0);

/// Write `bytes` to `path` atomically: see `save_with`.
pub fn save(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    save_with(path, |w| w.write_all(bytes))
}

/// Write a file atomically: `write` fills a new temporary file in the same directory, which
/// is flushed to disk and renamed over `path`, so `path` holds either its old contents or the
/// whole new ones, never a part. A target that exists and is not a regular file is refused.
/// On any failure, `write`'s included, the temporary file is removed and `path` is untouched.
pub fn save_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), FileError> {
    check_output(path)?;
    let name = path
        .file_name()
        .ok_or_else(|| FileError::new(path, Why::NotRegular("a directory")))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    remove_stale_temporaries(dir, name);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(
        ".{}.{}.tmp",
        std::process::id(),
        SAVES.fetch_add(1, Ordering::Relaxed)
    ));
    let tmp = dir.join(tmp_name);
    // `create_new` never follows or reuses whatever already has the temporary name.
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| FileError::io(path, e))?;
    let result = (|| {
        let mut out = io::BufWriter::new(file);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        // Keep the target's permissions, as writing it in place would.
        if let Ok(meta) = std::fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        FileError::io(path, e)
    })
}

/// Remove the temporary files that saves of `name` in `dir` left when their process was
/// killed (`.NAME.PID.N.tmp`, see `save_with`), so that they do not pile up. Only those of a
/// process that is no longer running are touched; nothing else is, and a failure to remove
/// one is left for the next save.
fn remove_stale_temporaries(dir: &Path, name: &std::ffi::OsStr) {
    let (Some(name), Ok(entries)) = (name.to_str(), std::fs::read_dir(dir)) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|rest| rest.split_once('.'))
            .filter(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_running(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` is running. Where that cannot be told (no `/proc`), every process
/// counts as running, so that no temporary file of a live save is removed.
fn process_running(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

/// Create (or truncate) `path` for writing as a stream, for outputs written as they are made
/// (self-play positions, match games), where a part is worth keeping if the run stops. A
/// target that exists and is not a regular file is refused.
pub fn create(path: &Path) -> Result<File, FileError> {
    check_output(path)?;
    let file = File::create(path).map_err(|e| FileError::io(path, e))?;
    regular(path, &file.metadata().map_err(|e| FileError::io(path, e))?)?;
    Ok(file)
}

/// Open `path` for appending (creating it when it is not there), for outputs that grow
/// across runs (a match's PDN). A target that exists and is not a regular file is refused.
pub fn append(path: &Path) -> Result<File, FileError> {
    check_output(path)?;
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| FileError::io(path, e))?;
    regular(path, &file.metadata().map_err(|e| FileError::io(path, e))?)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 37, defect 4: an output in a folder that is not there fails the check made
    /// before the work, not the save after it.
    #[test]
    fn an_output_without_its_folder_fails_the_check() {
        let dir = scratch("no-folder");
        let out = dir.join("missing").join("out.pdn");
        let e = check_output(&out).unwrap_err();
        assert!(e.to_string().contains("folder does not exist"), "{e}");
        // A file where the folder should be is no folder either.
        std::fs::write(dir.join("file"), "x").unwrap();
        assert!(check_output(&dir.join("file").join("out.pdn")).is_err());
        // A new file in a folder that is there, or in the current folder, is fine.
        check_output(&dir.join("out.pdn")).unwrap();
        check_output(Path::new("poolshark-no-such-file.pdn")).unwrap();
    }

    /// Issue 58, item 1: one file under two names is one file; a file not there yet is
    /// never the same as another.
    #[test]
    fn same_file_sees_through_names_and_links() {
        let dir = scratch("same-file");
        let a = dir.join("a.txt");
        std::fs::write(&a, "x").unwrap();
        let dotted = dir.join(".").join("a.txt");
        assert!(same_file(&a, &dotted));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&a, dir.join("link")).unwrap();
            assert!(same_file(&dir.join("link"), &a));
            std::fs::hard_link(&a, dir.join("hard")).unwrap();
            assert!(same_file(&dir.join("hard"), &a));
        }
        std::fs::write(dir.join("b.txt"), "x").unwrap();
        assert!(!same_file(&a, &dir.join("b.txt")));
        let new = dir.join("new.txt");
        assert!(!same_file(&new, &new));
        // Two outputs, not there yet, are one file by name in one folder.
        assert!(same_output(&new, &dir.join(".").join("new.txt")));
        assert!(!same_output(&new, &dir.join("new2.txt")));
        let e = check_not_input(("--out", &dotted), [("--data", a.as_path())]).unwrap_err();
        assert!(e.to_string().starts_with("--out "), "{e}");
        assert!(e.to_string().contains("is also an input (--data "), "{e}");
        check_not_input(("--out", &new), [("--data", a.as_path())]).unwrap();
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("poolshark-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// A FIFO at `path`, or None where `mkfifo` is not available.
    fn mkfifo(path: &Path) -> Option<()> {
        let ok = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(())
    }

    #[test]
    fn devices_directories_and_fifos_are_not_read() {
        let dir = scratch("read-special");
        for (path, what) in [
            (dir.as_path(), "a directory"),
            (Path::new("/dev/zero"), "a device"),
        ] {
            let e = read(path, Kind::Weights).unwrap_err();
            assert_eq!(e.reason(), format!("not a regular file ({what})"));
        }
        let fifo = dir.join("fifo");
        if mkfifo(&fifo).is_some() {
            // Would block forever if it were opened: nothing writes to it.
            let e = read(&fifo, Kind::Book).unwrap_err();
            assert_eq!(e.reason(), "not a regular file (a FIFO)");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn files_over_the_limit_are_refused_and_the_error_states_it() {
        let dir = scratch("read-large");
        let path = dir.join("big.txt");
        let f = File::create(&path).unwrap();
        // Sparse: no disk used.
        f.set_len(Kind::Weights.limit() + 1).unwrap();
        let e = read_to_string(&path, Kind::Weights).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{}: larger than 64 MiB, the limit for a weights file",
                path.display()
            )
        );
        f.set_len(Kind::Weights.limit()).unwrap();
        assert_eq!(
            read(&path, Kind::Weights).unwrap().len() as u64,
            Kind::Weights.limit()
        );
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert_eq!(
            read_to_string(&path, Kind::Weights).unwrap_err().reason(),
            "not UTF-8 text"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn save_replaces_a_regular_file_and_leaves_nothing_else() {
        let dir = scratch("save");
        let path = dir.join("out.txt");
        save(&path, b"one").unwrap();
        save(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(entries(&dir), ["out.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn save_refuses_special_targets_and_leaves_them_as_they_were() {
        let dir = scratch("save-special");
        let real = dir.join("real.txt");
        std::fs::write(&real, "kept").unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let sub = dir.join("sub");
        std::fs::create_dir(&sub).unwrap();
        let fifo = dir.join("fifo");
        let mut targets = vec![
            (link.clone(), "a symbolic link"),
            (sub.clone(), "a directory"),
            (PathBuf::from("/dev/full"), "a device"),
        ];
        if mkfifo(&fifo).is_some() {
            targets.push((fifo.clone(), "a FIFO"));
        }
        for (target, what) in &targets {
            let e = save(target, b"new").unwrap_err();
            assert_eq!(e.reason(), format!("not a regular file ({what})"));
            let e = create(target).unwrap_err();
            assert_eq!(e.reason(), format!("not a regular file ({what})"));
        }
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert!(std::fs::metadata(&sub).unwrap().is_dir());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "kept");
        let mut left = vec!["link.txt", "real.txt", "sub"];
        if targets.len() == 4 {
            left.insert(0, "fifo");
        }
        assert_eq!(entries(&dir), left);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_save_removes_its_temporary_file_and_keeps_the_old_one() {
        let dir = scratch("save-fail");
        let path = dir.join("out.txt");
        std::fs::write(&path, "old").unwrap();
        let e = save_with(&path, |w| {
            w.write_all(&[b'x'; 100_000])?;
            Err(io::Error::other("disk full"))
        })
        .unwrap_err();
        assert_eq!(e.reason(), "disk full");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(entries(&dir), ["out.txt"]);
        // A directory that does not exist: nothing is created anywhere.
        let e = save(&dir.join("none/out.txt"), b"x").unwrap_err();
        assert!(matches!(e.why, Why::NoFolder), "{e}");
        assert_eq!(entries(&dir), ["out.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn lines_are_capped() {
        let text = b"short\r\nabcd\r\nabcdefghij\nlast".to_vec();
        let mut input = std::io::Cursor::new(text);
        let mut line = Vec::new();
        // The "\r\n" end counts in neither the line nor its length.
        assert_eq!(read_line_capped(&mut input, &mut line, 4).unwrap(), Some(5));
        assert_eq!(line, b"shor");
        assert_eq!(read_line_capped(&mut input, &mut line, 4).unwrap(), Some(4));
        assert_eq!(line, b"abcd");
        assert_eq!(
            read_line_capped(&mut input, &mut line, 4).unwrap(),
            Some(10)
        );
        assert_eq!(line, b"abcd");
        assert_eq!(read_line_capped(&mut input, &mut line, 9).unwrap(), Some(4));
        assert_eq!(line, b"last");
        assert_eq!(read_line_capped(&mut input, &mut line, 9).unwrap(), None);
    }

    #[test]
    fn lines_stream_a_file_and_refuse_a_long_line() {
        let dir = scratch("lines");
        let path = dir.join("a.txt");
        std::fs::write(&path, "one\r\ntwo\n\nthree").unwrap();
        let v: Vec<String> = lines(&path, 5).unwrap().map(Result::unwrap).collect();
        assert_eq!(v, ["one", "two", "", "three"]);
        std::fs::write(&path, "12345\n123456\nnever\n").unwrap();
        let mut it = lines(&path, 5).unwrap();
        assert_eq!(it.next().unwrap().unwrap(), "12345");
        let e = it.next().unwrap().unwrap_err();
        assert_eq!(e.reason(), "a line is longer than 5 bytes");
        assert!(it.next().is_none());
        std::fs::write(&path, [b'a', b'\n', 0xff, b'\n']).unwrap();
        let mut it = lines(&path, 5).unwrap();
        assert_eq!(it.next().unwrap().unwrap(), "a");
        assert_eq!(it.next().unwrap().unwrap_err().reason(), "not UTF-8 text");
        assert_eq!(
            lines(&dir, 5).err().unwrap().reason(),
            "not a regular file (a directory)"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A save killed part way leaves its temporary file: the next save of the same target
    /// removes it when its process is gone, and leaves every other file.
    #[test]
    fn a_save_removes_the_temporary_files_of_dead_processes() {
        let dir = scratch("save-stale");
        let path = dir.join("out.txt");
        // Above the largest process id Linux allows (2^22): never a running process.
        let dead = 4_194_305 + 1000;
        let own = std::process::id();
        let stale = [
            format!(".out.txt.{dead}.0.tmp"),
            format!(".out.txt.{dead}.17.tmp"),
        ];
        let kept = [
            format!(".out.txt.{own}.999.tmp"),
            format!(".other.txt.{dead}.0.tmp"),
            format!(".out.txt.{dead}.x.tmp"),
            "notes.txt".to_string(),
        ];
        for f in stale.iter().chain(&kept) {
            std::fs::write(dir.join(f), "left").unwrap();
        }
        save(&path, b"new").unwrap();
        let mut want: Vec<String> = kept.to_vec();
        want.push("out.txt".into());
        want.sort();
        assert_eq!(entries(&dir), want);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn create_truncates_a_regular_file() {
        let dir = scratch("create");
        let path = dir.join("games.pdn");
        std::fs::write(&path, "old games").unwrap();
        let mut f = create(&path).unwrap();
        f.write_all(b"new").unwrap();
        drop(f);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
