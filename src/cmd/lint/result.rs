//! What a check concludes for one command (§ 18.1): pass, fail, not
//! applicable (the capabilities say the check does not concern the
//! command) or not tested (a black box does not allow it, or the probe
//! could not decide), always with why and what was seen.

/// What a check concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
    Pass,
    Fail,
    NotApplicable,
    NotTested,
}

impl Status {
    /// The word the table shows.
    pub(super) fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "FAIL",
            Status::NotApplicable => "n/a",
            Status::NotTested => "not tested",
        }
    }
    /// Which status a factor shows when its checks differ: the highest.
    pub(super) fn rank(self) -> u8 {
        match self {
            Status::Fail => 3,
            Status::Pass => 2,
            Status::NotTested => 1,
            Status::NotApplicable => 0,
        }
    }
}

/// One check's result for one command.
#[derive(Debug, Clone)]
pub(super) struct CheckResult {
    pub(super) number: u8,
    pub(super) command: String,
    pub(super) status: Status,
    pub(super) detail: String,
    /// What was seen: lines, exit codes, stderr excerpts.
    pub(super) evidence: Vec<String>,
}

impl CheckResult {
    pub(super) fn new(
        number: u8,
        command: &str,
        status: Status,
        detail: impl Into<String>,
    ) -> Self {
        CheckResult {
            number,
            command: command.to_string(),
            status,
            detail: detail.into(),
            evidence: Vec::new(),
        }
    }
    pub(super) fn with(mut self, evidence: Vec<String>) -> Self {
        self.evidence = evidence;
        self
    }
}
