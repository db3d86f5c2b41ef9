//! Token buckets per remote IP address (`budget.rs` buckets, one per address): for what a
//! peer could otherwise renew by coming back under a new identity — new connections
//! (`inbound_gate.rs`) and blocks the node has to hold without their parents (the service's
//! orphan budget, D53). An IPv6 address counts as its /64, the block one host is usually
//! given. Memory stays bounded: past `REMEMBERED` addresses, those whose buckets are full
//! again are forgotten (a new address gets a full bucket, so that changes nothing); if none
//! is, the node is flooded from that many addresses at once and a new one gets nothing.

use crate::budget::Budget;
use libp2p::multiaddr::Protocol;
use libp2p::Multiaddr;
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Addresses remembered at most.
pub const REMEMBERED: usize = 4_096;

#[derive(Debug)]
pub struct AddressBudgets {
    buckets: HashMap<IpAddr, Budget>,
    per_second: f64,
    burst: f64,
}

impl AddressBudgets {
    pub fn new(per_second: f64, burst: f64) -> AddressBudgets {
        AddressBudgets { buckets: HashMap::new(), per_second, burst }
    }

    /// Take one token of `ip`'s bucket at `now` if there is one (a refusal costs nothing).
    pub fn try_take(&mut self, ip: IpAddr, now: Instant) -> bool {
        self.bucket(ip, now).is_some_and(|bucket| bucket.try_take(now))
    }

    /// Spend `n` of `ip`'s bucket at `now`: how long to wait before taking more from that
    /// address (`Budget::spend`). An address the node has no room to remember pays as if
    /// its bucket were empty.
    pub fn spend(&mut self, ip: IpAddr, n: usize, now: Instant) -> Duration {
        let per_second = self.per_second;
        match self.bucket(ip, now) {
            Some(bucket) => bucket.spend(n, now),
            None => Duration::from_secs_f64(n as f64 / per_second),
        }
    }

    fn bucket(&mut self, ip: IpAddr, now: Instant) -> Option<&mut Budget> {
        let ip = match ip {
            IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & !(u64::MAX as u128)).into()),
            v4 => v4,
        };
        if self.buckets.len() >= REMEMBERED && !self.buckets.contains_key(&ip) {
            self.buckets.retain(|_, bucket| !bucket.is_full(now));
            if self.buckets.len() >= REMEMBERED {
                return None;
            }
        }
        let (per_second, burst) = (self.per_second, self.burst);
        Some(self.buckets.entry(ip).or_insert_with(|| Budget::new(per_second, burst, now)))
    }

    #[cfg(test)]
    fn remembered(&self) -> usize {
        self.buckets.len()
    }
}

/// The IP address a multiaddress starts with (none for the in-memory transport of tests).
pub fn ip_of(address: &Multiaddr) -> Option<IpAddr> {
    match address.iter().next()? {
        Protocol::Ip4(ip) => Some(IpAddr::V4(ip)),
        Protocol::Ip6(ip) => Some(IpAddr::V6(ip)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn addresses_are_counted_apart() {
        let now = Instant::now();
        let mut budgets = AddressBudgets::new(10.0, 20.0);
        while budgets.try_take(IpAddr::from([192, 0, 2, 1]), now) {}
        assert!(budgets.try_take(IpAddr::from([192, 0, 2, 2]), now), "not held back by another");
    }

    #[test]
    fn an_ipv6_host_counts_as_its_slash_64() {
        let now = Instant::now();
        let mut budgets = AddressBudgets::new(10.0, 20.0);
        let host = |last: u16| IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, last]);
        assert_eq!((0..1_000).filter(|i| budgets.try_take(host(*i), now)).count(), 20);
        assert!(budgets.try_take(IpAddr::from([0x2001, 0xdb8, 0, 2, 0, 0, 0, 1]), now));
    }

    #[test]
    fn spending_past_the_burst_asks_for_a_wait_that_pays_the_debt() {
        let now = Instant::now();
        let mut budgets = AddressBudgets::new(50.0, 500.0);
        let ip = IpAddr::from([192, 0, 2, 1]);
        assert_eq!(budgets.spend(ip, 500, now), Duration::ZERO, "the burst");
        assert_eq!(budgets.spend(ip, 50, now), Duration::from_secs(1), "50 more at 50 a second");
        assert_eq!(budgets.spend(ip, 0, now + Duration::from_secs(1)), Duration::ZERO, "paid");
    }

    #[test]
    fn the_remembered_addresses_stay_bounded() {
        let start = Instant::now();
        let mut budgets = AddressBudgets::new(10.0, 20.0);
        for i in 0..(3 * REMEMBERED as u32) {
            let ip = IpAddr::from(i.to_be_bytes());
            assert!(budgets.try_take(ip, start + MS * i), "a new address gets in");
            assert!(budgets.remembered() <= REMEMBERED);
        }
    }

    #[test]
    fn a_flood_from_more_addresses_than_remembered_gets_nothing_new() {
        let now = Instant::now();
        let mut budgets = AddressBudgets::new(10.0, 20.0);
        for i in 0..REMEMBERED as u32 {
            assert!(budgets.try_take(IpAddr::from(i.to_be_bytes()), now));
        }
        let new = IpAddr::from([203, 0, 113, 1]);
        assert!(!budgets.try_take(new, now), "all remembered are recent");
        assert_eq!(budgets.spend(new, 5, now), Duration::from_millis(500), "pays as if empty");
        assert!(budgets.try_take(new, now + Duration::from_secs(1)));
        assert!(budgets.remembered() <= REMEMBERED);
    }

    #[test]
    fn only_ip_addresses_have_one() {
        let tcp: Multiaddr = "/ip4/127.0.0.1/tcp/15600".parse().unwrap();
        assert_eq!(ip_of(&tcp), Some(IpAddr::from([127, 0, 0, 1])));
        assert_eq!(ip_of(&"/memory/42".parse().unwrap()), None);
    }
}
