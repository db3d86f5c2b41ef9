// JSON shapes of the Core REST API v2 (wire-format.md, api.md §2.3). Payload and output
// objects are kept open: their full shapes are defined by the spec tables and checked by
// the native codec.

export type HexString = `0x${string}`;

export interface BlockJson {
  protocolVersion: number;
  parents?: string[];
  payload?: PayloadJson | null;
  nonce?: string;
}

export interface PayloadJson {
  type: number;
  [key: string]: unknown;
}

export interface OutputJson {
  type: number;
  amount: string | number;
  [key: string]: unknown;
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

/** JSON (object or text) or the serialized bytes. */
export type BlockInput = BlockJson | string | Uint8Array;
