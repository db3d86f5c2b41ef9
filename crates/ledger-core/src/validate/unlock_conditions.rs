//! Unlock condition rules (validation.md §5.2 allowed sets, §5.3 per condition).

use super::deposit::min_return_deposit;
use super::ordering::{strictly_after, List};
use crate::error::{Code, Error, Result};
use crate::model::*;
use crate::protocol::ProtocolParameters;

/// `allowed` is the output type's set of condition codes; `path` the list's own path.
pub(crate) fn validate_unlock_conditions(
    output: &Output,
    allowed: &[u8],
    params: &ProtocolParameters,
    path: &str,
) -> Result<()> {
    let list = output.unlock_conditions();
    for (i, uc) in list.iter().enumerate() {
        let at = crate::path::index(path, i);
        let kind = uc.type_code();
        if !allowed.contains(&kind) {
            return Err(Error::new(
                Code::UnlockConditionNotAllowed,
                format!("{at}.type"),
                format!(
                    "unlock condition type {kind} is not allowed in output type {}",
                    output.type_code()
                ),
            ));
        }
        if i > 0 {
            strictly_after(&list[i - 1].type_code(), &kind, List::UnlockConditions, || {
                format!("{at}.type")
            })?;
        }
        match uc {
            UnlockCondition::StorageDepositReturn { amount, .. } => {
                let minimum = min_return_deposit(&params.rent_structure);
                if *amount < minimum {
                    return Err(Error::new(
                        Code::StorageDepositReturnBelowMinimum,
                        format!("{at}.amount"),
                        format!("return amount {amount} is below the minimum deposit {minimum}"),
                    ));
                }
                if *amount > output.amount() {
                    return Err(Error::new(
                        Code::StorageDepositReturnExceedsAmount,
                        format!("{at}.amount"),
                        format!(
                            "return amount {amount} exceeds the output amount {}",
                            output.amount()
                        ),
                    ));
                }
            }
            UnlockCondition::Timelock { unix_time: 0 } => {
                return Err(Error::new(
                    Code::TimelockZero,
                    format!("{at}.unixTime"),
                    "a timelock needs a non-zero time",
                ))
            }
            UnlockCondition::Expiration { unix_time: 0, .. } => {
                return Err(Error::new(
                    Code::ExpirationZero,
                    format!("{at}.unixTime"),
                    "an expiration needs a non-zero time",
                ))
            }
            UnlockCondition::ImmutableAliasAddress(a) if !matches!(a, Address::Alias(_)) => {
                return Err(Error::new(
                    Code::FoundryNotAliasAddress,
                    format!("{at}.address"),
                    "a foundry is controlled by an alias address",
                ))
            }
            _ => {}
        }
    }
    let has = |kind: u8| list.iter().any(|uc| uc.type_code() == kind);
    match output {
        Output::Basic(_) if !has(0) => Err(Error::new(
            Code::BasicMissingAddressUnlockCondition,
            path,
            "a basic output needs an address unlock condition",
        )),
        Output::Nft(_) if !has(0) => Err(Error::new(
            Code::NftMissingAddressUnlockCondition,
            path,
            "an NFT output needs an address unlock condition",
        )),
        Output::Alias(_) if !(has(4) && has(5)) => Err(Error::new(
            Code::AliasMissingControllerUnlockCondition,
            path,
            "an alias output needs a state controller and a governor address",
        )),
        Output::Foundry(_) if !has(6) => Err(Error::new(
            Code::FoundryMissingAliasUnlockCondition,
            path,
            "a foundry output needs an immutable alias address unlock condition",
        )),
        _ => Ok(()),
    }
}
