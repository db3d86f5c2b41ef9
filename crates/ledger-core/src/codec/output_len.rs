//! The serialized length of an output without serializing it: the storage deposit
//! (validation.md §6) needs it for every output of every transaction.

use crate::model::*;

/// Serialized length of an output, computed without serializing it (storage deposit).
pub fn output_len(output: &Output) -> usize {
    fn features_len(fs: &[Feature]) -> usize {
        1 + fs
            .iter()
            .map(|f| match f {
                Feature::Sender(_) | Feature::Issuer(_) => 34,
                Feature::Metadata(d) => 3 + d.len(),
                Feature::Tag(t) => 2 + t.len(),
            })
            .sum::<usize>()
    }
    fn conditions_len(ucs: &[UnlockCondition]) -> usize {
        1 + ucs
            .iter()
            .map(|uc| match uc {
                UnlockCondition::Address(_)
                | UnlockCondition::StateControllerAddress(_)
                | UnlockCondition::GovernorAddress(_)
                | UnlockCondition::ImmutableAliasAddress(_) => 34,
                UnlockCondition::StorageDepositReturn { .. } => 42,
                UnlockCondition::Timelock { .. } => 5,
                UnlockCondition::Expiration { .. } => 38,
            })
            .sum::<usize>()
    }
    let tokens = |nt: &[NativeToken]| 1 + 70 * nt.len();
    match output {
        Output::Treasury { .. } => 9,
        Output::Basic(o) => {
            9 + tokens(&o.native_tokens)
                + conditions_len(&o.unlock_conditions)
                + features_len(&o.features)
        }
        Output::Alias(o) => {
            9 + tokens(&o.native_tokens)
                + 32
                + 4
                + 2
                + o.state_metadata.len()
                + 4
                + conditions_len(&o.unlock_conditions)
                + features_len(&o.features)
                + features_len(&o.immutable_features)
        }
        Output::Foundry(o) => {
            9 + tokens(&o.native_tokens)
                + 4
                + 97
                + conditions_len(&o.unlock_conditions)
                + features_len(&o.features)
                + features_len(&o.immutable_features)
        }
        Output::Nft(o) => {
            9 + tokens(&o.native_tokens)
                + 32
                + conditions_len(&o.unlock_conditions)
                + features_len(&o.features)
                + features_len(&o.immutable_features)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smallest_basic_output_is_46_bytes() {
        let o = Output::Basic(BasicOutput {
            amount: 1,
            native_tokens: vec![],
            unlock_conditions: vec![UnlockCondition::Address(Address::Ed25519([0; 32]))],
            features: vec![],
        });
        assert_eq!(output_len(&o), 46);
        assert_eq!(output_len(&o), crate::codec::encode_output(&o).len());
    }
}
