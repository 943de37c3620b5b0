//! The checks of § 18.2 and the factors of § 18 they stand for: the one
//! list every result, table row and `aoi:check` event takes its check's
//! name and factors from.

/// One check of § 18.2.
#[derive(Debug, Clone, Copy)]
pub struct Check {
    /// Its number in § 18.2.
    pub number: u8,
    /// Its name (`typed-output`), as the table and `aoi:check` give it.
    pub name: &'static str,
    /// The factors of § 18 it shows.
    pub factors: &'static [&'static str],
}

const fn check(number: u8, name: &'static str, factors: &'static [&'static str]) -> Check {
    Check {
        number,
        name,
        factors,
    }
}

/// The checks of § 18.2: number, name, factors.
pub const CHECKS: &[Check] = &[
    check(1, "discovery", &["Discoverable"]),
    check(2, "typed-output", &["Typed"]),
    check(3, "terminal-summary", &["Verifiable"]),
    check(4, "schema-valid-events", &["Typed", "Verifiable"]),
    check(5, "errors-and-usage", &["Verifiable"]),
    check(6, "confirm-and-dry-run", &["Safe"]),
    check(7, "idempotent-replay", &["Idempotent"]),
    check(8, "stable-ids", &["Auditable"]),
    check(9, "no-secret-echo", &["Safe"]),
    check(10, "pipe-and-signals", &["Composable"]),
    check(11, "bounded-output", &["Bounded", "Streamable"]),
    check(12, "malformed-input", &["Composable"]),
    check(13, "schema-version", &["Versioned"]),
    check(14, "one-meta-one-summary", &["Composable", "Verifiable"]),
    check(15, "seq-and-run", &["Verifiable"]),
    check(16, "upstream-forwarding", &["Composable"]),
];

/// The factors of § 18, in the order the table shows them.
pub(super) const FACTORS: &[&str] = &[
    "Discoverable",
    "Typed",
    "Verifiable",
    "Versioned",
    "Composable",
    "Bounded",
    "Streamable",
    "Safe",
    "Idempotent",
    "Auditable",
];

fn find(n: u8) -> Option<&'static Check> {
    CHECKS.iter().find(|c| c.number == n)
}

/// The name of check `n`.
pub(super) fn check_name(n: u8) -> &'static str {
    find(n).map_or("check", |c| c.name)
}

/// The factors check `n` shows.
pub(super) fn check_factors(n: u8) -> &'static [&'static str] {
    find(n).map_or(&[], |c| c.factors)
}
