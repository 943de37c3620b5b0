//! [`Exit`]: how a producer's run ended, as the judge sees the stream it
//! wrote, and the status the process exits with.

use super::Summary;
use super::guard::Refusal;
use crate::judge::{Outcome, Verdict};
use crate::spec::exit;

/// How a [`Producer`](super::Producer)'s run ended: the outcome `aoi
/// check` gives the stream written (§ 6), and the status for the process
/// to exit with. The status is the outcome's exit code (0, 1, 75, 77,
/// 124, 130, 74 for a stream cut by a write failure), except that a
/// cancellation by a signal is 128 + the signal (143 for SIGTERM, § 7)
/// and a reader that closed the pipe is 141.
///
/// ```
/// use aoi::emit::{ErrorEvent, Producer, Reason, Summary, ToolIdentity};
/// use aoi::judge::Outcome;
///
/// let id = ToolIdentity::new("search", "1.0.0", "org.example.search.events", "1.0.0");
/// let mut p = Producer::start(id, "search", Vec::new()).expect("a Vec takes any write");
/// // A rate limit ended the run: retry may help, so 75 (§ 9.3).
/// p.error(&ErrorEvent::new("rate_limited", "SLOW_DOWN", "try again in 2 s")
///     .field("scope", "process").field("retry_after_ms", 2000)).expect("written");
/// let exit = p.close(Summary::failed(Reason::Failed));
/// assert_eq!((exit.outcome(), exit.code()), (Outcome::Retryable, 75));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Exit {
    code: i32,
    outcome: Outcome,
    refused: Option<Refusal>,
}

impl Exit {
    /// The judge's verdict on the stream, with the signal of a
    /// cancellation.
    pub(crate) fn judged(v: Verdict, sig: Option<i32>, refused: Option<Refusal>) -> Self {
        let code = match (v.outcome, sig) {
            (Outcome::Cancelled, Some(sig)) => crate::cancel::exit_code(sig),
            (o, _) => o.exit_code(),
        };
        Exit {
            code,
            outcome: v.outcome,
            refused,
        }
    }

    /// An unjudged stream (aoi's own output) that ended with `s`.
    pub(crate) fn of_summary(s: &Summary, sig: Option<i32>, refused: Option<Refusal>) -> Self {
        let code = match (s.reason(), sig) {
            (Some(super::Reason::Cancelled), Some(sig)) if !s.is_ok() => {
                crate::cancel::exit_code(sig)
            }
            _ => s.exit_code(),
        };
        Self::code_only(code, refused)
    }

    /// A status, with the outcome it stands for.
    pub(crate) fn code_only(code: i32, refused: Option<Refusal>) -> Self {
        let outcome = match code {
            exit::OK => Outcome::Ok,
            exit::FAILED => Outcome::Failed,
            exit::TEMPFAIL => Outcome::Retryable,
            exit::NOPERM => Outcome::Denied,
            exit::TIMEOUT => Outcome::Timeout,
            exit::DATAERR => Outcome::Violation,
            c if c > 128 && c != exit::PIPE => Outcome::Cancelled,
            _ => Outcome::Incomplete,
        };
        Exit {
            code,
            outcome,
            refused,
        }
    }

    /// This status with the judge's outcome.
    pub(crate) fn with_outcome(mut self, o: Outcome) -> Self {
        self.outcome = o;
        self
    }

    /// The status for the process to exit with.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// What `aoi check` says of the stream written.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// The summary (or event, for [`Producer::end`](super::Producer::end))
    /// the judge refused, when the run was closed with a failed summary
    /// in its place.
    pub fn refused(&self) -> Option<&Refusal> {
        self.refused.as_ref()
    }

    /// Exits the process with [`code`](Self::code).
    pub fn exit(&self) -> ! {
        std::process::exit(self.code)
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> Self {
        std::process::ExitCode::from(e.code.clamp(0, 255) as u8)
    }
}

impl PartialEq<i32> for Exit {
    fn eq(&self, code: &i32) -> bool {
        self.code == *code
    }
}
