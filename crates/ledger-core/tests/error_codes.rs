//! The list of reason codes (`error/code.rs`): each string unique, kebab-case and parsed
//! back to its code; every reason of `vectors/invalid.jsonl` on the list; and
//! `src/core/error-codes.ts`, the list as TypeScript sees it, rendered from `Code::ALL`.
//!
//! After a change to the list, write the TypeScript file anew with
//! `LEDGER_WRITE_ERROR_CODES=1 node scripts/cargo-host.js test -p ledger-core --release --test error_codes`.

use ledger_core::error::UnknownCode;
use ledger_core::Code;
use std::collections::HashSet;
use std::path::PathBuf;

const REGENERATE: &str = "LEDGER_WRITE_ERROR_CODES=1 node scripts/cargo-host.js test -p ledger-core --release --test error_codes";

fn repository(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

/// Lower-case words of letters and digits joined by single hyphens. The one exception is
/// the literal `0X` of `uppercase-0X-prefix`, which names what it rejects.
fn is_kebab_case(text: &str) -> bool {
    text.split('-').all(|word| {
        !word.is_empty()
            && (word == "0X" || word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
    })
}

#[test]
fn every_code_is_unique_kebab_case_and_round_trips() {
    let mut seen = HashSet::new();
    for &code in Code::ALL {
        let text = code.as_str();
        assert!(seen.insert(text), "{text} is listed twice");
        assert!(is_kebab_case(text), "{text} is not kebab-case");
        assert_eq!(code.to_string(), text);
        assert_eq!(text.parse::<Code>(), Ok(code));
        assert_eq!(Code::from_code_str(text), Some(code));
    }
    assert_eq!(seen.len(), Code::ALL.len());
    assert_eq!("no-such-code".parse::<Code>(), Err(UnknownCode("no-such-code".into())));
    assert_eq!(Code::from_code_str("Bad-Hex"), None);
}

#[test]
fn the_invalid_vectors_name_listed_codes() {
    let text = std::fs::read_to_string(repository("vectors/invalid.jsonl")).expect("the vectors");
    let mut reasons = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        if let Some(reason) = record.get("reason").and_then(|r| r.as_str()) {
            assert!(
                reason.parse::<Code>().is_ok(),
                "{reason} (vector {}) is not on the list",
                record["name"]
            );
            reasons += 1;
        }
    }
    assert!(reasons > 0);
}

/// The text of `src/core/error-codes.ts` for the list as it is.
fn typescript() -> String {
    let mut out = String::new();
    out.push_str("// The reason codes of LedgerError, generated from the Rust list\n");
    out.push_str("// (crates/ledger-core/src/error/code.rs, where each is documented) by\n");
    out.push_str("// crates/ledger-core/tests/error_codes.rs, which fails when this file differs. Do not edit;\n");
    out.push_str("// after a change to the Rust list, write it anew with\n");
    out.push_str(&format!("//   {REGENERATE}\n\n"));
    out.push_str("/** The reason of a LedgerError: a stable kebab-case string. */\n");
    out.push_str("export type ErrorCode =\n");
    for (i, code) in Code::ALL.iter().enumerate() {
        let end = if i + 1 == Code::ALL.len() { ";" } else { "" };
        out.push_str(&format!("  | '{code}'{end}\n"));
    }
    out.push_str("\n/** Every ErrorCode, in the order of the Rust list. */\n");
    out.push_str("export const ERROR_CODES: readonly ErrorCode[] = [\n");
    for code in Code::ALL {
        out.push_str(&format!("  '{code}',\n"));
    }
    out.push_str("];\n");
    out
}

#[test]
fn the_typescript_list_is_the_rust_list() {
    let path = repository("src/core/error-codes.ts");
    let expected = typescript();
    if std::env::var_os("LEDGER_WRITE_ERROR_CODES").is_some() {
        std::fs::write(&path, &expected).expect("write src/core/error-codes.ts");
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "src/core/error-codes.ts is not the Rust list of codes; write it anew with\n  {REGENERATE}"
    );
}
