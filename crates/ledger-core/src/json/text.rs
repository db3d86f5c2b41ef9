//! Canonical API JSON written straight to text (key order of the spec tables, empty
//! optional fields omitted). This is the only place that decides the emitted shapes;
//! the `serde_json::Value` forms in `mod.rs` parse this text.

use crate::model::*;
use std::io::Write as _;

/// A compact JSON text builder that tracks where commas go. It writes ASCII bytes (keys,
/// digits, hex): no char encoding per character, one UTF-8 check at the end.
struct Out {
    text: Vec<u8>,
    first: bool,
}

impl Out {
    fn new(capacity: usize) -> Self {
        Out { text: Vec::with_capacity(capacity), first: true }
    }
    fn finish(self) -> String {
        String::from_utf8(self.text).expect("the emitter writes ASCII")
    }
    fn push_str(&mut self, s: &str) {
        self.text.extend_from_slice(s.as_bytes());
    }
    fn sep(&mut self) {
        if !self.first {
            self.text.push(b',');
        }
        self.first = false;
    }
    fn key(&mut self, k: &str) {
        self.sep();
        self.text.push(b'"');
        self.push_str(k);
        self.push_str("\":");
        self.first = true;
    }
    fn open(&mut self, c: char) {
        self.text.push(c as u8);
        self.first = true;
    }
    fn close(&mut self, c: char) {
        self.text.push(c as u8);
        self.first = false;
    }
    fn num(&mut self, k: &str, v: u64) {
        self.key(k);
        let _ = write!(self.text, "{v}");
        self.first = false;
    }
    fn dec(&mut self, k: &str, v: u64) {
        self.key(k);
        let _ = write!(self.text, "\"{v}\"");
        self.first = false;
    }
    fn hex(&mut self, k: &str, bytes: &[u8]) {
        self.key(k);
        self.hex_value(bytes);
    }
    /// A byte string the protocol allows to be empty: omitted when empty, as Hornet and
    /// iota-sdk write it (D15). Every such field goes through here.
    fn optional_hex(&mut self, k: &str, bytes: &[u8]) {
        if !bytes.is_empty() {
            self.hex(k, bytes);
        }
    }
    fn hex_value(&mut self, bytes: &[u8]) {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        self.text.reserve(bytes.len() * 2 + 4);
        self.push_str("\"0x");
        let start = self.text.len();
        self.text.resize(start + 2 * bytes.len(), 0);
        for (pair, &b) in self.text[start..].chunks_exact_mut(2).zip(bytes) {
            pair[0] = DIGITS[(b >> 4) as usize];
            pair[1] = DIGITS[(b & 15) as usize];
        }
        self.text.push(b'"');
        self.first = false;
    }
    fn u256(&mut self, k: &str, le: &[u8; 32]) {
        self.key(k);
        let mut be = *le;
        be.reverse();
        let digits = hex::encode(be);
        let trimmed = digits.trim_start_matches('0');
        let _ = write!(self.text, "\"0x{}\"", if trimmed.is_empty() { "0" } else { trimmed });
        self.first = false;
    }
    fn obj(&mut self, k: &str, body: impl FnOnce(&mut Out)) {
        self.key(k);
        self.open('{');
        body(self);
        self.close('}');
    }
    fn arr<T>(&mut self, k: &str, items: &[T], each: impl Fn(&mut Out, &T)) {
        self.key(k);
        self.open('[');
        for item in items {
            self.sep();
            self.open('{');
            each(self, item);
            self.close('}');
        }
        self.close(']');
    }
}

pub fn block(b: &Block) -> String {
    let mut o = Out::new(256);
    o.open('{');
    o.num("protocolVersion", b.protocol_version as u64);
    o.key("parents");
    o.open('[');
    for p in &b.parents {
        o.sep();
        o.hex_value(p);
    }
    o.close(']');
    if let Some(p) = &b.payload {
        o.obj("payload", |o| payload_fields(o, p));
    }
    o.dec("nonce", b.nonce);
    o.close('}');
    o.finish()
}

pub fn payload(p: &Payload) -> String {
    let mut o = Out::new(256);
    o.open('{');
    payload_fields(&mut o, p);
    o.close('}');
    o.finish()
}

pub fn output(out: &Output) -> String {
    let mut o = Out::new(128);
    o.open('{');
    output_fields(&mut o, out);
    o.close('}');
    o.finish()
}

/// A receipt milestone option as Hornet's `/receipts` writes it (iota.go's
/// `jsonReceiptMilestoneOpt`: type, migratedAt, funds, transaction, final).
pub fn receipt(r: &ReceiptOption) -> String {
    let mut o = Out::new(256);
    o.open('{');
    o.num("type", 0);
    o.num("migratedAt", r.migrated_at as u64);
    o.arr("funds", &r.funds, |o, f| {
        o.hex("tailTransactionHash", &f.tail_transaction_hash);
        o.obj("address", |o| address_fields(o, &f.address));
        o.dec("deposit", f.deposit);
    });
    o.obj("transaction", |o| {
        o.num("type", 4);
        treasury_fields(o, &r.transaction);
    });
    o.key("final");
    o.push_str(if r.last { "true" } else { "false" });
    o.first = false;
    o.close('}');
    o.finish()
}

pub fn address(a: &Address) -> String {
    let mut o = Out::new(80);
    o.open('{');
    address_fields(&mut o, a);
    o.close('}');
    o.finish()
}

fn payload_fields(o: &mut Out, p: &Payload) {
    o.num("type", p.type_code() as u64);
    match p {
        Payload::TreasuryTransaction(t) => treasury_fields(o, t),
        Payload::TaggedData(t) => {
            o.optional_hex("tag", &t.tag);
            o.optional_hex("data", &t.data);
        }
        Payload::Transaction(tx) => {
            let e = &tx.essence;
            o.obj("essence", |o| {
                o.num("type", 1);
                o.dec("networkId", e.network_id);
                o.arr("inputs", &e.inputs, input_fields);
                o.hex("inputsCommitment", &e.inputs_commitment);
                o.arr("outputs", &e.outputs, output_fields);
                if let Some(p) = &e.payload {
                    o.obj("payload", |o| payload_fields(o, p));
                }
            });
            o.arr("unlocks", &tx.unlocks, |o, u| match u {
                Unlock::Signature(s) => {
                    o.num("type", 0);
                    o.obj("signature", |o| signature_fields(o, s));
                }
                Unlock::Reference(r) | Unlock::Alias(r) | Unlock::Nft(r) => {
                    let kind = match u {
                        Unlock::Reference(_) => 1,
                        Unlock::Alias(_) => 2,
                        _ => 3,
                    };
                    o.num("type", kind);
                    o.num("reference", *r as u64);
                }
            });
        }
        Payload::Milestone(m) => milestone_fields(o, m),
    }
}

fn input_fields(o: &mut Out, i: &Input) {
    match i {
        Input::Utxo { transaction_id, output_index } => {
            o.num("type", 0);
            o.hex("transactionId", transaction_id);
            o.num("transactionOutputIndex", *output_index as u64);
        }
        Input::Treasury { milestone_id } => {
            o.num("type", 1);
            o.hex("milestoneId", milestone_id);
        }
    }
}

fn signature_fields(o: &mut Out, s: &Ed25519Signature) {
    o.num("type", 0);
    o.hex("publicKey", &s.public_key);
    o.hex("signature", &s.signature);
}

fn address_fields(o: &mut Out, a: &Address) {
    o.num("type", a.kind() as u64);
    let key = match a {
        Address::Ed25519(_) => "pubKeyHash",
        Address::Alias(_) => "aliasId",
        Address::Nft(_) => "nftId",
    };
    o.hex(key, a.id());
}

fn output_fields(o: &mut Out, out: &Output) {
    o.num("type", out.type_code() as u64);
    o.dec("amount", out.amount());
    if let Output::Treasury { .. } = out {
        return;
    }
    if !out.native_tokens().is_empty() {
        o.arr("nativeTokens", out.native_tokens(), |o, t| {
            o.hex("id", &t.id);
            o.u256("amount", &t.amount);
        });
    }
    match out {
        Output::Alias(a) => {
            o.hex("aliasId", &a.alias_id);
            o.num("stateIndex", a.state_index as u64);
            o.optional_hex("stateMetadata", &a.state_metadata);
            o.num("foundryCounter", a.foundry_counter as u64);
        }
        Output::Foundry(f) => {
            o.num("serialNumber", f.serial_number as u64);
            let TokenScheme::Simple { minted_tokens, melted_tokens, maximum_supply } =
                &f.token_scheme;
            o.obj("tokenScheme", |o| {
                o.num("type", 0);
                o.u256("mintedTokens", minted_tokens);
                o.u256("meltedTokens", melted_tokens);
                o.u256("maximumSupply", maximum_supply);
            });
        }
        Output::Nft(n) => o.hex("nftId", &n.nft_id),
        _ => {}
    }
    if !out.unlock_conditions().is_empty() {
        o.arr("unlockConditions", out.unlock_conditions(), |o, uc| {
            o.num("type", uc.type_code() as u64);
            match uc {
                UnlockCondition::Address(a)
                | UnlockCondition::StateControllerAddress(a)
                | UnlockCondition::GovernorAddress(a)
                | UnlockCondition::ImmutableAliasAddress(a) => {
                    o.obj("address", |o| address_fields(o, a))
                }
                UnlockCondition::StorageDepositReturn { return_address, amount } => {
                    o.obj("returnAddress", |o| address_fields(o, return_address));
                    o.dec("amount", *amount);
                }
                UnlockCondition::Timelock { unix_time } => o.num("unixTime", *unix_time as u64),
                UnlockCondition::Expiration { return_address, unix_time } => {
                    o.obj("returnAddress", |o| address_fields(o, return_address));
                    o.num("unixTime", *unix_time as u64);
                }
            }
        });
    }
    if !out.features().is_empty() {
        o.arr("features", out.features(), feature_fields);
    }
    if !out.immutable_features().is_empty() {
        o.arr("immutableFeatures", out.immutable_features(), feature_fields);
    }
}

fn feature_fields(o: &mut Out, f: &Feature) {
    o.num("type", f.type_code() as u64);
    match f {
        Feature::Sender(a) | Feature::Issuer(a) => o.obj("address", |o| address_fields(o, a)),
        // Empty ones break a rule (1..8192, 1..64 bytes) but still decode; written like
        // iota-sdk writes them, without the key.
        Feature::Metadata(d) => o.optional_hex("data", d),
        Feature::Tag(t) => o.optional_hex("tag", t),
    }
}

fn treasury_fields(o: &mut Out, t: &TreasuryTransaction) {
    o.obj("input", |o| input_fields(o, &t.input));
    o.obj("output", |o| output_fields(o, &t.output));
}

fn milestone_fields(o: &mut Out, m: &MilestonePayload) {
    o.num("index", m.index as u64);
    o.num("timestamp", m.timestamp as u64);
    o.num("protocolVersion", m.protocol_version as u64);
    o.hex("previousMilestoneId", &m.previous_milestone_id);
    o.key("parents");
    o.open('[');
    for p in &m.parents {
        o.sep();
        o.hex_value(p);
    }
    o.close(']');
    o.hex("inclusionMerkleRoot", &m.inclusion_merkle_root);
    o.hex("appliedMerkleRoot", &m.applied_merkle_root);
    o.optional_hex("metadata", &m.metadata);
    if !m.options.is_empty() {
        o.arr("options", &m.options, |o, option| match option {
            MilestoneOption::Receipt(r) => {
                o.num("type", 0);
                o.num("migratedAt", r.migrated_at as u64);
                o.key("final");
                o.push_str(if r.last { "true" } else { "false" });
                o.first = false;
                o.arr("funds", &r.funds, |o, f| {
                    o.hex("tailTransactionHash", &f.tail_transaction_hash);
                    o.obj("address", |o| address_fields(o, &f.address));
                    o.dec("deposit", f.deposit);
                });
                o.obj("transaction", |o| {
                    o.num("type", 4);
                    treasury_fields(o, &r.transaction);
                });
            }
            MilestoneOption::ProtocolParameters {
                target_milestone_index,
                protocol_version,
                params,
            } => {
                o.num("type", 1);
                o.num("targetMilestoneIndex", *target_milestone_index as u64);
                o.num("protocolVersion", *protocol_version as u64);
                o.optional_hex("params", params);
            }
        });
    }
    o.arr("signatures", &m.signatures, signature_fields);
}
