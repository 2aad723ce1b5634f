//! Input lines, read with a bound.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// Longest input line (one message) that is read. Longer lines are discarded while they are
/// read (never held in memory) and answered with `-32600`. MCP clients send small messages
/// (tool arguments, not documents).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One input line, read with a bound.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// A whole line is in [`BoundedLines::line`] (without its newline).
    Complete,
    /// The line was longer than the bound and has been skipped.
    TooLong,
    /// The input ended.
    Eof,
}

/// Reads lines without ever holding more than `max` bytes of one (`read_until` cannot be
/// bounded: it returns only at a newline). A read dropped before it returns loses nothing: the
/// part of the line read so far stays here for the next call (rmcp polls its transport inside
/// a `select!`).
pub(super) struct BoundedLines<R> {
    reader: R,
    /// The line [`BoundedLines::next`] last read as [`Line::Complete`].
    pub(super) line: Vec<u8>,
    max: usize,
    discarding: bool,
    returned: bool,
}

impl<R: AsyncBufRead + Unpin> BoundedLines<R> {
    pub(super) fn new(reader: R, max: usize) -> Self {
        Self {
            reader,
            line: Vec::new(),
            max,
            discarding: false,
            returned: false,
        }
    }

    pub(super) async fn next(&mut self) -> std::io::Result<Line> {
        if std::mem::take(&mut self.returned) {
            self.line.clear();
        }
        loop {
            let buf = self.reader.fill_buf().await?;
            if buf.is_empty() {
                let line = match (self.discarding, self.line.is_empty()) {
                    (true, _) => Line::TooLong,
                    (false, true) => Line::Eof,
                    (false, false) => Line::Complete,
                };
                self.discarding = false;
                self.returned = true;
                return Ok(line);
            }
            let (used, done) = match buf.iter().position(|b| *b == b'\n') {
                Some(at) => (at + 1, true),
                None => (buf.len(), false),
            };
            let content = &buf[..if done { used - 1 } else { used }];
            if !self.discarding {
                if self.line.len() + content.len() > self.max {
                    self.discarding = true;
                    self.line.clear();
                    self.line.shrink_to(64 * 1024);
                } else {
                    self.line.extend_from_slice(content);
                }
            }
            self.reader.consume(used);
            if done {
                self.returned = true;
                return Ok(if std::mem::take(&mut self.discarding) {
                    Line::TooLong
                } else {
                    Line::Complete
                });
            }
        }
    }
}
