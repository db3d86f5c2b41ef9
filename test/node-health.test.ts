// The follower's bound on its latest milestone's age (D50, src/server/lib/node-health.ts):
// a few of the network's intervals, within 15 s .. 5 min, and the coordinator's own rule.

import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/schema';
import { FOLLOWER_AGE, followerMilestoneAge, healthyAt } from '../src/server/lib/node-health';

const interval = (seconds: number) => ({ lastInterval: { index: 9, newBlocks: 0, referencedBlocks: 0, seconds } });

describe('a follower’s milestone age bound', () => {
  const config = defaultConfig(); // coordinator.interval 5

  it('is three of the last observed intervals', () => {
    expect(followerMilestoneAge(interval(10), config)).toBe(30);
    expect(followerMilestoneAge(interval(60), config)).toBe(180);
  });

  it('falls back to coordinator.interval before two milestones were seen, and on a zero interval', () => {
    const slow = { ...config, coordinator: { ...config.coordinator, interval: 20 } };
    expect(followerMilestoneAge({}, slow)).toBe(60);
    expect(followerMilestoneAge(interval(0), slow)).toBe(60);
  });

  it('stays within 15 s and Hornet’s 5 minutes', () => {
    expect(followerMilestoneAge(interval(1), config)).toBe(FOLLOWER_AGE.min);
    expect(followerMilestoneAge(interval(600), config)).toBe(FOLLOWER_AGE.max);
  });
});

describe('the coordinator’s rule', () => {
  it('is max(5 minutes, 3 intervals) from the latest milestone', () => {
    const now = 1_000_000;
    expect(healthyAt({ index: 4, timestamp: now - 299 }, 5, now)).toBe(true);
    expect(healthyAt({ index: 4, timestamp: now - 300 }, 5, now)).toBe(false);
    expect(healthyAt({ index: 4, timestamp: now - 500 }, 200, now)).toBe(true);
    expect(healthyAt({ index: 0 }, 5, now)).toBe(false);
  });
});
