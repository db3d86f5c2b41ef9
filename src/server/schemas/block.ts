// JSON Schema of a submitted block (wire-format §5–§8 shapes), compiled once with ajv.
// It runs before any native code so that malformed JSON is answered with a precise path
// (`payload.essence.outputs[2].amount`) and never reaches the codec. The rules of
// validation.md (ordering, sums, deposits, signatures) stay with the native validator.
// Unknown keys are allowed and ignored (wire-format §2).

import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

const hex = (bytes: number) => ({ type: 'string', pattern: `^0[xX][0-9a-fA-F]{${bytes * 2}}$` });
const hexBytes = (maxBytes: number, allowEmpty = true) => ({
  type: 'string',
  pattern: allowEmpty ? '^(0[xX]([0-9a-fA-F]{2})*)?$' : '^0[xX]([0-9a-fA-F]{2})+$',
  maxLength: 2 + maxBytes * 2,
});
const uint = (max: number) => ({ type: 'integer', minimum: 0, maximum: max });
const u16 = uint(0xffff);
const u32 = uint(0xffffffff);
/** u64: decimal string without sign or leading zeros (range checked by the codec), or a safe integer. */
const u64 = { anyOf: [{ type: 'string', pattern: '^(0|[1-9][0-9]{0,19})$' }, uint(Number.MAX_SAFE_INTEGER)] };
/** u256: 0x + 1..64 hex digits. */
const u256 = { type: 'string', pattern: '^0[xX][0-9a-fA-F]{1,64}$' };
const tagged = (type: number, properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  required: ['type', ...required],
  properties: { type: { const: type }, ...properties },
});
/** One of several objects told apart by their integer `type` (an if/then per type, so errors name the inner field). */
const oneOfByType = (...branches: { properties: { type: { const: number } }; [key: string]: unknown }[]) => ({
  type: 'object',
  required: ['type'],
  properties: { type: { enum: branches.map((b) => b.properties.type.const) } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords; ajv reads the object, nothing awaits it.
  allOf: branches.map((b) => ({ if: { properties: { type: { const: b.properties.type.const } } }, then: b })),
});
/** null or the schema; errors come from the schema, not from the null branch. */
const nullable = (schema: object) => ({ if: { type: 'null' }, else: schema });
const list = (items: object, max: number, min = 0) => ({ type: 'array', items, minItems: min, maxItems: max });
/**
 * A shape used in several places, by reference to the schema's `$defs`: ajv then compiles it
 * once, as a function of its own, instead of once per place (inlined, the validator's code was
 * about 1 MB and took a third of a second of every process start to compile).
 */
const ref = (name: keyof typeof defs) => ({ $ref: `#/$defs/${name}` });

const addressShape = oneOfByType(
  tagged(0, { pubKeyHash: hex(32) }, ['pubKeyHash']),
  tagged(8, { aliasId: hex(32) }, ['aliasId']),
  tagged(16, { nftId: hex(32) }, ['nftId']),
);
const nativeToken = { type: 'object', required: ['id', 'amount'], properties: { id: hex(38), amount: u256 } };
const address = ref('address');
const unlockConditionShape = oneOfByType(
  tagged(0, { address }, ['address']),
  {
    ...tagged(1, { returnAddress: address, amount: u64, returnAmount: u64 }, ['returnAddress']),
    anyOf: [{ required: ['amount'] }, { required: ['returnAmount'] }],
  },
  tagged(2, { unixTime: u32 }, ['unixTime']),
  tagged(3, { returnAddress: address, unixTime: u32 }, ['returnAddress', 'unixTime']),
  tagged(4, { address }, ['address']),
  tagged(5, { address }, ['address']),
  tagged(6, { address }, ['address']),
);
const featureShape = oneOfByType(
  tagged(0, { address }, ['address']),
  tagged(1, { address }, ['address']),
  tagged(2, { data: hexBytes(8192, false) }, ['data']),
  tagged(3, { tag: hexBytes(64, false) }, ['tag']),
);
const common = {
  amount: u64,
  nativeTokens: list(ref('nativeToken'), 64),
  unlockConditions: list(ref('unlockCondition'), 7),
  features: list(ref('feature'), 4),
  immutableFeatures: list(ref('feature'), 4),
};
const tokenScheme = tagged(0, { mintedTokens: u256, meltedTokens: u256, maximumSupply: u256 }, [
  'mintedTokens',
  'meltedTokens',
  'maximumSupply',
]);
const outputShape = oneOfByType(
  tagged(3, common, ['amount']),
  tagged(4, { ...common, aliasId: hex(32), stateIndex: u32, stateMetadata: hexBytes(8192), foundryCounter: u32 }, [
    'amount',
    'aliasId',
    'stateIndex',
    'foundryCounter',
  ]),
  tagged(5, { ...common, serialNumber: u32, tokenScheme }, ['amount', 'serialNumber', 'tokenScheme']),
  tagged(6, { ...common, nftId: hex(32) }, ['amount', 'nftId']),
);
const taggedData = tagged(5, { tag: hexBytes(64), data: hexBytes(32768) });
const input = tagged(0, { transactionId: hex(32), transactionOutputIndex: u16 }, [
  'transactionId',
  'transactionOutputIndex',
]);
const signature = tagged(0, { publicKey: hex(32), signature: hex(64) }, ['publicKey', 'signature']);
const unlockShape = oneOfByType(
  tagged(0, { signature }, ['signature']),
  tagged(1, { reference: u16 }, ['reference']),
  tagged(2, { reference: u16 }, ['reference']),
  tagged(3, { reference: u16 }, ['reference']),
);
const essence = tagged(
  1,
  {
    networkId: u64,
    inputs: list(input, 128, 1),
    inputsCommitment: hex(32),
    outputs: list(ref('output'), 128, 1),
    payload: nullable(taggedData),
  },
  ['networkId', 'inputs', 'inputsCommitment', 'outputs'],
);
const transaction = tagged(6, { essence, unlocks: list(ref('unlock'), 128, 1) }, ['essence', 'unlocks']);
/** Milestones are refused on the API (D16); only their type is looked at here. */
const milestone = tagged(7, {});

const defs = {
  address: addressShape,
  nativeToken,
  unlockCondition: unlockConditionShape,
  feature: featureShape,
  output: outputShape,
  unlock: unlockShape,
};

export const blockSchema = {
  $defs: defs,
  type: 'object',
  required: ['protocolVersion'],
  properties: {
    protocolVersion: { const: 2 },
    parents: list(hex(32), 8),
    payload: nullable(oneOfByType(taggedData, transaction, milestone)),
    nonce: { type: 'string', pattern: '^(|0|[1-9][0-9]{0,19}|0[xX][0-9a-fA-F]{1,16})$' },
  },
};

// `code.optimize: false`: ajv's optimising pass counts the generated code's variable names
// in thousands of fresh `{}` objects, each with a different first key. V8 records every
// such first key as a transition of the one hidden class all `{}` literals start from;
// past its limit (about 1,500) it stops sharing, and from then on objects that Node builds
// per request (its `nextTick` records, among others) each get a hidden class of their own
// through V8's slow paths, until a full GC clears the dead transitions. That made every
// request of the process about a third dearer (docs/performance.md, "A hidden-class
// leak"). Without the pass the validator is about a tenth slower on large blocks and
// compiles in half the time; test/e2e/hidden-classes.test.ts keeps the leak out.
const ajv = new Ajv({ allErrors: false, strict: false, inlineRefs: false, code: { optimize: false } });
export const checkBlockShape: ValidateFunction = ajv.compile(blockSchema);

/** `/payload/essence/outputs/2/amount` → `payload.essence.outputs[2].amount`. */
export function jsonPath(instancePath: string): string {
  let path = '';
  for (const part of instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(key) ? `[${key}]` : path === '' ? key : `.${key}`;
  }
  return path;
}

/** The first error as `path: detail`, naming the missing or offending key where ajv knows it. */
export function describeShapeError(errors: ErrorObject[] | null | undefined): { path: string; detail: string } {
  const error = errors?.[0];
  if (error === undefined) return { path: '', detail: 'invalid block' };
  let path = jsonPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  let detail = error.message ?? 'invalid value';
  if (error.keyword === 'required') {
    const key = String(params.missingProperty);
    path = path === '' ? key : `${path}.${key}`;
    detail = 'is required';
  } else if (error.keyword === 'enum') {
    detail = `must be one of ${JSON.stringify(params.allowedValues)}`;
  } else if (error.keyword === 'const') {
    detail = `must be ${JSON.stringify(params.allowedValue)}`;
  } else if (error.keyword === 'pattern') {
    detail = 'malformed value (wrong hex or number format)';
  } else if (error.keyword === 'anyOf' && error.instancePath.endsWith('amount')) {
    detail = 'must be a decimal u64 string';
  }
  return { path: path || '(root)', detail };
}
