//! What a fresh machine may lack: the programs some tests read
//! aoi's output with (report readers, GNU time, Python, fleet engines)
//! and the shared folder beside the clone. Each is asked for here, never
//! assumed: a test whose program or data is missing says so with a
//! notice and skips that part, and asking never panics. `.ci/run` runs the
//! whole suite once with only Debian's essential programs on `PATH` and
//! `AOI_SHARED` pointing nowhere, so a test that assumes one fails there;
//! then, after installing them, once more with [`REQUIRE`] set, so a
//! reader that failed to install fails the run instead of skipping.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::util::{AOI, command, notice};

/// Whether `program ARGS` starts and exits 0, with nothing on stdin: how
/// a test asks whether an optional program (or a module of it) is here.
/// One that cannot be started is absent, not a failure.
pub fn installed(program: impl AsRef<OsStr>, args: &[&str]) -> bool {
    installed_with(program, args, &[])
}

/// [`installed`], with `env` set (a module path, say).
pub fn installed_with(program: impl AsRef<OsStr>, args: &[&str], env: &[(&str, String)]) -> bool {
    command(program)
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Set (to anything) where every optional program must be here.
pub const REQUIRE: &str = "AOI_REQUIRE_OPTIONAL";

/// Whether `program` is a file on `PATH` that may be executed.
pub fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| {
        std::fs::metadata(dir.join(program))
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

/// `here`, saying first what is skipped when it is false: "WHAT is not
/// installed here; skipped: SKIPPED". Under [`REQUIRE`], false fails.
pub fn present(what: &str, here: bool, skipped: &str) -> bool {
    if !here {
        assert!(
            std::env::var_os(REQUIRE).is_none(),
            "{what} is not installed here, and {REQUIRE} is set; it was for: {skipped}"
        );
        notice(format!("{what} is not installed here; skipped: {skipped}"));
    }
    here
}

/// The shared folder beside the clone (the spec, the JSON and jq test
/// suites), or `AOI_SHARED` where that is set; `None`, with a notice
/// naming what is skipped, where `sub` is not in it.
pub fn shared(sub: &str, skipped: &str) -> Option<PathBuf> {
    let root = std::env::var_os("AOI_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let path = root.join(sub);
    if path.exists() {
        return Some(path);
    }
    notice(format!(
        "{} not found (the shared folder beside the clone); skipped: {skipped}",
        path.display()
    ));
    None
}

/// Peak RSS in KiB of `aoi ARGS` (stdin from `input`, or none) with `env`
/// set, measured by GNU time where it is on `PATH`.
pub fn peak_rss_kib(args: &[&str], input: Option<&Path>, env: &[(&str, &str)]) -> Option<u64> {
    if !present(
        "GNU time",
        installed("time", &["-f", "%M", "true"]),
        "the peak memory measure",
    ) {
        return None;
    }
    let stdin = match input {
        Some(p) => Stdio::from(std::fs::File::open(p).expect("open the input")),
        None => Stdio::null(),
    };
    let o = command("time")
        .args(["-f", "%M", AOI])
        .args(args)
        .envs(env.iter().copied())
        .stdin(stdin)
        .stdout(Stdio::null())
        .output()
        .expect("GNU time runs");
    let err = String::from_utf8_lossy(&o.stderr);
    let kib = err.lines().last().and_then(|l| l.trim().parse().ok());
    Some(kib.unwrap_or_else(|| panic!("no peak RSS from GNU time: {err}")))
}
