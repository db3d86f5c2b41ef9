// The current state sent to a new subscriber only, right after its SUBACK (events.md §4,
// D34): nothing is retained, these are read from the store when a filter names exactly
// one of these topics. Wildcard filters get nothing.

import { outputBodyJsonText } from '../http/json-text';
import type { LedgerStoreApi } from '../store-contract';
import { blockMetadataEventJson, milestoneInfoJson } from './publish';
import { currentStateTopics, topics } from './topics';

export interface Message {
  topic: string;
  payload: Buffer | string;
}

/** The current-state message of a subscription to `filter`, if it has one. */
export function currentState(filter: string, store: LedgerStoreApi): Message | undefined {
  if (filter === topics.milestoneInfoLatest) {
    const latest = store.status().latestMilestone;
    if (latest.timestamp === undefined || latest.milestoneId === undefined) return undefined;
    return { topic: filter, payload: milestoneInfoJson(latest.index, latest.timestamp, latest.milestoneId) };
  }
  if (filter === topics.milestoneInfoConfirmed) {
    const index = store.status().ledgerIndex;
    const confirmed = index > 0 ? store.getMilestoneByIndex(index) : null;
    if (confirmed === null) return undefined;
    return { topic: filter, payload: milestoneInfoJson(confirmed.index, confirmed.timestamp, confirmed.milestoneId) };
  }
  let match = currentStateTopics.blockMetadata.exec(filter);
  if (match !== null) {
    const metadata = store.getBlockMetadata(match[1]);
    return metadata === null ? undefined : { topic: filter, payload: blockMetadataEventJson(metadata) };
  }
  match = currentStateTopics.output.exec(filter);
  if (match !== null) {
    const found = store.getOutput(match[1]);
    return found === null ? undefined : { topic: filter, payload: outputBodyJsonText(found.output, found.metadata) };
  }
  match = currentStateTopics.includedBlock.exec(filter);
  if (match !== null) {
    const blockId = store.getIncludedBlockId(match[1]);
    const bytes = blockId === null ? null : store.getBlock(blockId);
    return bytes === null ? undefined : { topic: filter, payload: bytes };
  }
  return undefined;
}
