//! Conflict reason codes (validation.md §9), as Hornet and TIP-25 number them.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ConflictReason {
    InputAlreadySpent = 1,
    InputSpentInThisMilestone = 2,
    InputNotFound = 3,
    AmountMismatch = 4,
    InvalidSignature = 5,
    TimelockNotExpired = 6,
    InvalidNativeTokens = 7,
    StorageDepositReturnUnfulfilled = 8,
    InvalidInputUnlock = 9,
    InvalidInputsCommitment = 10,
    SenderNotUnlocked = 11,
    InvalidChainStateTransition = 12,
    SemanticValidationFailed = 255,
}

impl ConflictReason {
    pub const ALL: [ConflictReason; 13] = [
        ConflictReason::InputAlreadySpent,
        ConflictReason::InputSpentInThisMilestone,
        ConflictReason::InputNotFound,
        ConflictReason::AmountMismatch,
        ConflictReason::InvalidSignature,
        ConflictReason::TimelockNotExpired,
        ConflictReason::InvalidNativeTokens,
        ConflictReason::StorageDepositReturnUnfulfilled,
        ConflictReason::InvalidInputUnlock,
        ConflictReason::InvalidInputsCommitment,
        ConflictReason::SenderNotUnlocked,
        ConflictReason::InvalidChainStateTransition,
        ConflictReason::SemanticValidationFailed,
    ];

    /// The `conflictReason` number of block metadata.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The reason with this number; None for 0 (no conflict) and unassigned numbers.
    pub fn from_code(code: u8) -> Option<ConflictReason> {
        Self::ALL.into_iter().find(|r| r.code() == code)
    }

    pub fn description(self) -> &'static str {
        match self {
            ConflictReason::InputAlreadySpent => "input already spent",
            ConflictReason::InputSpentInThisMilestone => {
                "input already spent by an earlier transaction of this milestone"
            }
            ConflictReason::InputNotFound => "input not found",
            ConflictReason::AmountMismatch => "input and output amounts differ",
            ConflictReason::InvalidSignature => "invalid signature",
            ConflictReason::TimelockNotExpired => "timelock not yet expired",
            ConflictReason::InvalidNativeTokens => "invalid native tokens",
            ConflictReason::StorageDepositReturnUnfulfilled => {
                "storage deposit return not fulfilled"
            }
            ConflictReason::InvalidInputUnlock => "invalid input unlock",
            ConflictReason::InvalidInputsCommitment => "invalid inputs commitment",
            ConflictReason::SenderNotUnlocked => "sender feature address not unlocked",
            ConflictReason::InvalidChainStateTransition => "invalid chain state transition",
            ConflictReason::SemanticValidationFailed => "semantic validation failed",
        }
    }
}

impl fmt::Display for ConflictReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.description(), self.code())
    }
}

impl std::error::Error for ConflictReason {}
