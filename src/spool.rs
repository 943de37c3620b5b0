//! A line kept on disk while it is read: how `aoi strip` writes out an
//! event longer than the reader holds ([`crate::long`]) once the judge has
//! said which plane it belongs to, in memory that does not grow with it.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::ops::Range;

/// The bytes of one line, in an unnamed temporary file (made at the first
/// long line, removed by the system when aoi exits).
#[derive(Default)]
pub struct Spool {
    file: Option<File>,
    len: u64,
}

impl Spool {
    /// Adds bytes of the line being read.
    pub fn push(&mut self, bytes: &[u8]) -> io::Result<()> {
        let file = match &mut self.file {
            Some(f) => f,
            None => self.file.insert(tempfile::tempfile()?),
        };
        file.write_all(bytes)?;
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Writes the line to `out`, without the bytes in `skip` (offsets in
    /// the line, in order), and starts over empty.
    pub fn write_to(&mut self, out: &mut dyn Write, skip: &[Range<u64>]) -> io::Result<()> {
        let len = std::mem::take(&mut self.len);
        let Some(file) = &mut self.file else {
            return Ok(());
        };
        file.seek(SeekFrom::Start(0))?;
        let mut at = 0u64;
        let mut buf = vec![0u8; 256 * 1024];
        let mut keep = |from: u64, to: u64, file: &mut File| -> io::Result<()> {
            let mut left = to.saturating_sub(from);
            file.seek(SeekFrom::Start(from))?;
            while left > 0 {
                let n = buf.len().min(left as usize);
                let piece = buf.get_mut(..n).unwrap_or_default();
                file.read_exact(piece)?;
                out.write_all(piece)?;
                left -= n as u64;
            }
            Ok(())
        };
        for r in skip {
            keep(at, r.start.min(len), file)?;
            at = at.max(r.end.min(len));
        }
        keep(at, len, file)?;
        file.set_len(0)?;
        file.seek(SeekFrom::Start(0)).map(|_| ())
    }

    /// Forgets the line (it belongs to no output).
    pub fn reset(&mut self) -> io::Result<()> {
        if self.len == 0 {
            return Ok(());
        }
        self.len = 0;
        if let Some(file) = &mut self.file {
            file.set_len(0)?;
            file.seek(SeekFrom::Start(0))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_line_without_the_cut_and_starts_over() {
        let mut s = Spool::default();
        s.push(b"{\"a\":1,").unwrap();
        s.push(b"\"aoi\":{}}\n").unwrap();
        let mut out = Vec::new();
        let cut: Vec<Range<u64>> = std::iter::once(6..15).collect();
        s.write_to(&mut out, &cut).unwrap();
        assert_eq!(out, b"{\"a\":1}\n");
        s.push(b"xyz\n").unwrap();
        out.clear();
        let cut: Vec<Range<u64>> = std::iter::once(0..1).collect();
        s.write_to(&mut out, &cut).unwrap();
        assert_eq!(out, b"yz\n");
        s.push(b"gone").unwrap();
        s.reset().unwrap();
        out.clear();
        s.write_to(&mut out, &[]).unwrap();
        assert!(out.is_empty());
    }
}
