// JSON shapes of the Core REST API v2 (wire-format.md §2–§8, api.md §2.3), as the node
// emits them: u64 as decimal strings, u256 as 0x-hex without leading zeros, byte strings
// as lower-case 0x-hex, empty lists and byte strings omitted. Decoders return these
// types; encoders take any object (or JSON text) because input is lenient (D14, D15) and
// checked natively, with a LedgerError naming the field.

export type HexString = `0x${string}`;
/** u64 as a decimal string (on input also a JSON integer ≤ 2^53−1). */
export type U64String = string;

// Addresses (§7.2)
export interface Ed25519AddressJson {
  type: 0;
  pubKeyHash: string;
}
export interface AliasAddressJson {
  type: 8;
  aliasId: string;
}
export interface NftAddressJson {
  type: 16;
  nftId: string;
}
export type AddressJson = Ed25519AddressJson | AliasAddressJson | NftAddressJson;

// Native tokens and token scheme (§7.3)
export interface NativeTokenJson {
  id: string;
  amount: string;
}
export interface SimpleTokenSchemeJson {
  type: 0;
  mintedTokens: string;
  meltedTokens: string;
  maximumSupply: string;
}

// Unlock conditions (§7.4)
export type UnlockConditionJson =
  | { type: 0; address: AddressJson }
  | { type: 1; returnAddress: AddressJson; amount: U64String }
  | { type: 2; unixTime: number }
  | { type: 3; returnAddress: AddressJson; unixTime: number }
  | { type: 4; address: AddressJson }
  | { type: 5; address: AddressJson }
  | { type: 6; address: AliasAddressJson };

// Features (§7.5)
export type FeatureJson =
  | { type: 0; address: AddressJson }
  | { type: 1; address: AddressJson }
  | { type: 2; data: string }
  | { type: 3; tag: string };

// Outputs (§7.6)
interface OutputCommon {
  amount: U64String;
  nativeTokens?: NativeTokenJson[];
  unlockConditions?: UnlockConditionJson[];
  features?: FeatureJson[];
}
export interface TreasuryOutputJson {
  type: 2;
  amount: U64String;
}
export interface BasicOutputJson extends OutputCommon {
  type: 3;
}
export interface AliasOutputJson extends OutputCommon {
  type: 4;
  aliasId: string;
  stateIndex: number;
  stateMetadata?: string;
  foundryCounter: number;
  immutableFeatures?: FeatureJson[];
}
export interface FoundryOutputJson extends OutputCommon {
  type: 5;
  serialNumber: number;
  tokenScheme: SimpleTokenSchemeJson;
  immutableFeatures?: FeatureJson[];
}
export interface NftOutputJson extends OutputCommon {
  type: 6;
  nftId: string;
  immutableFeatures?: FeatureJson[];
}
export type OutputJson = TreasuryOutputJson | BasicOutputJson | AliasOutputJson | FoundryOutputJson | NftOutputJson;

// Inputs, signatures, unlocks (§7.1, §7.7)
export interface UtxoInputJson {
  type: 0;
  transactionId: string;
  transactionOutputIndex: number;
}
export interface TreasuryInputJson {
  type: 1;
  milestoneId: string;
}
export interface Ed25519SignatureJson {
  type: 0;
  publicKey: string;
  signature: string;
}
export type UnlockJson = { type: 0; signature: Ed25519SignatureJson } | { type: 1 | 2 | 3; reference: number };

// Payloads (§6–§8)
export interface TaggedDataPayloadJson {
  type: 5;
  tag?: string;
  data?: string;
}
export interface RegularEssenceJson {
  type: 1;
  networkId: U64String;
  inputs: UtxoInputJson[];
  inputsCommitment: string;
  outputs: OutputJson[];
  payload?: TaggedDataPayloadJson;
}
export interface TransactionPayloadJson {
  type: 6;
  essence: RegularEssenceJson;
  unlocks: UnlockJson[];
}
export interface TreasuryTransactionPayloadJson {
  type: 4;
  input: TreasuryInputJson;
  output: TreasuryOutputJson;
}
export interface MigratedFundsJson {
  tailTransactionHash: string;
  address: Ed25519AddressJson;
  deposit: U64String;
}
export type MilestoneOptionJson =
  | {
      type: 0;
      migratedAt: number;
      final: boolean;
      funds: MigratedFundsJson[];
      transaction: TreasuryTransactionPayloadJson;
    }
  | { type: 1; targetMilestoneIndex: number; protocolVersion: number; params?: string };
export interface MilestonePayloadJson {
  type: 7;
  index: number;
  timestamp: number;
  protocolVersion: number;
  previousMilestoneId: string;
  parents: string[];
  inclusionMerkleRoot: string;
  appliedMerkleRoot: string;
  metadata?: string;
  options?: MilestoneOptionJson[];
  signatures: Ed25519SignatureJson[];
}
export type PayloadJson =
  | TaggedDataPayloadJson
  | TransactionPayloadJson
  | MilestonePayloadJson
  | TreasuryTransactionPayloadJson;

// Block (§5)
export interface BlockJson {
  protocolVersion: number;
  parents: string[];
  payload?: PayloadJson;
  /** Decimal string; on input also 0x-hex of the number, and absent/""/"0" = none (D14). */
  nonce: U64String;
}

export interface RentStructureJson {
  vByteCost: number;
  vByteFactorData: number;
  vByteFactorKey: number;
}

/** The `protocol` object of GET /api/core/v2/info. */
export interface ProtocolJson {
  version: number;
  networkName: string;
  bech32Hrp: string;
  minPowScore: number;
  belowMaxDepth: number;
  rentStructure: RentStructureJson;
  tokenSupply: string;
}

/** What encoders accept: any JSON object (lenient forms included) or its text. */
export type JsonInput = object | string;

/** JSON (object or text) or the serialized bytes. */
export type BlockInput = JsonInput | Uint8Array;
