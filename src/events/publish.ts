// Store events → topics and payloads (events.md §3, §5, D37). The store hands over each
// intake batch and each committed milestone after its atomic write; this file publishes
// them in the order of §5, with payloads built by the REST routes' own writers so the
// bytes match (block and milestone bytes as stored, metadata and output JSON from the same
// native emitters). A payload is built only when some subscription matches its topic.

import type { Logger } from 'pino';
import { outputBodyJsonText } from '../http/json-text';
import type {
  LedgerStoreApi,
  MilestoneCommittedEvent,
  OutputChangeEvent,
  StoreEvent,
  StoredBlockEvent,
} from '../store-contract';
import type { Fanout, Payload, Receiver } from './fanout';
import { CHAIN_KINDS, topics, UNLOCK_CONDITIONS } from './topics';

/** The milestone info object (§3.1), keys as inx-mqtt emits them. */
export function milestoneInfoJson(index: number, timestamp: number, milestoneId: string): string {
  return `{"index":${index},"timestamp":${timestamp},"milestoneId":"${milestoneId}"}`;
}

/**
 * The block metadata object of the REST API with the parents a second time as
 * `parentBlockIds` right after `parents` (D36). The REST text holds hex ids only, so the
 * first `]` after `"parents":[` closes that array. A milestone's own block before a
 * milestone references it has no `milestoneIndex` here: Hornet's REST names it from the
 * payload at once, its INX metadata (and so inx-mqtt's message) only once referenced.
 */
export function blockMetadataEventJson(restJson: string): string {
  const json = restJson.includes('"referencedByMilestoneIndex"')
    ? restJson
    : restJson.replace(/,"milestoneIndex":\d+/, '');
  const start = json.indexOf('"parents":[');
  if (start < 0) return json;
  const end = json.indexOf(']', start) + 1;
  return `${json.slice(0, end)},"parentBlockIds":${json.slice(start + '"parents":'.length, end)}${json.slice(end)}`;
}

/** A payload built at most once, however many topics carry it. */
function once(build: () => Payload): () => Payload {
  let value: Payload | undefined;
  return () => (value ??= build());
}

export class EventPublisher<R extends Receiver> {
  constructor(
    private readonly fanout: Fanout<R>,
    private readonly store: LedgerStoreApi,
    private readonly logger: Logger,
  ) {}

  /** The store's listener. */
  handle(event: StoreEvent): void {
    try {
      if (event.blocks) for (const block of event.blocks) this.blockStored(block);
      if (event.milestone) this.milestoneCommitted(event.milestone);
      // inx-mqtt's tip-score-updates: each tip added, then each removed, by the write just published.
      if (event.tips) for (const t of event.tips) this.fanout.publish(topics.tipScoreUpdates, () => t.metadataJson);
    } catch (err) {
      // A failure to publish must not reach the store's feed; it is a bug, logged once per event.
      this.logger.error({ err }, 'publishing a store event failed');
    }
  }

  /** `blocks`, the matching `blocks/…` topics, then its metadata (§5 "Block stored"). */
  private blockStored(block: StoredBlockEvent, milestonePayload?: Buffer): void {
    const publish = (topic: string, payload: () => Payload) => this.fanout.publish(topic, payload);
    const bytes = () => block.bytes;
    publish(topics.blocks, bytes);
    const tag = block.tag ?? undefined;
    if (block.payloadType === 6) {
      publish(topics.blocksTransaction, bytes);
      if (tag !== undefined) {
        publish(topics.blocksTransactionTaggedData, bytes);
        if (tag !== '0x') publish(topics.blocksTransactionTaggedDataTag(tag), bytes);
      }
    } else if (block.payloadType === 5 && tag !== undefined) {
      publish(topics.blocksTaggedData, bytes);
      if (tag !== '0x') publish(topics.blocksTaggedDataTag(tag), bytes);
    }
    if (milestonePayload !== undefined) publish(topics.milestones, () => milestonePayload);
    publish(topics.blockMetadata(block.blockId), () => blockMetadataEventJson(block.metadataJson));
  }

  /** §5 "Milestone committed", steps 1–4. */
  private milestoneCommitted(m: MilestoneCommittedEvent): void {
    this.blockStored(m.block, m.payload);
    for (const r of m.referenced) {
      const metadata = once(() => blockMetadataEventJson(r.metadataJson));
      this.fanout.publish(topics.blockMetadata(r.blockId), metadata);
      this.fanout.publish(topics.blockMetadataReferenced, metadata);
    }
    for (const t of m.transactions) {
      for (const o of t.consumed) this.outputChanged(o, true);
      for (const o of t.created) this.outputChanged(o, false);
      this.fanout.publish(
        topics.includedBlock(t.transactionId),
        () => this.store.getBlock(t.blockId) ?? Buffer.alloc(0),
      );
    }
    const info = once(() => milestoneInfoJson(m.index, m.timestamp, m.milestoneId));
    // With this node's milestones the latest and the confirmed milestone change together.
    this.fanout.publish(topics.milestoneInfoLatest, info);
    this.fanout.publish(topics.milestoneInfoConfirmed, info);
  }

  /** `outputs/{id}`, its chain topic (created only), then the unlock topics of §3.4. */
  private outputChanged(o: OutputChangeEvent, spent: boolean): void {
    const body = once(() => outputBodyJsonText(o.output, o.metadataJson));
    this.fanout.publish(topics.output(o.outputId), body);
    if (!spent && o.chainType != null && o.chainId != null) {
      const kind = CHAIN_KINDS.get(o.chainType);
      if (kind !== undefined) this.fanout.publish(topics.chain(kind, o.chainId), body);
    }
    const distinct: string[] = [];
    for (const { condition, address } of o.unlockAddresses) {
      const name = UNLOCK_CONDITIONS.get(condition);
      if (name === undefined) continue;
      this.fanout.publish(topics.unlock(name, address, spent), body);
      if (!distinct.includes(address)) distinct.push(address);
    }
    for (const address of distinct) this.fanout.publish(topics.unlock('+', address, spent), body);
  }
}
