//! What the INX server is started with: its settings (`InxConfig`, Hornet's `inx.*` keys and
//! what `ReadNodeConfiguration` reports) and the node around it (`Node`: gossip's view and
//! broadcast, the log).

use futures::future::BoxFuture;
use ledger_core::model::Id32;
use std::time::Duration;

pub struct InxConfig {
    /// `inx.bindAddress`: host:port; every address the host resolves to is listened on.
    pub bind_address: String,
    /// `ReadNodeConfiguration`'s base token (Hornet's `protocol.baseToken`).
    pub base_token: BaseToken,
    /// Store events a stream may have waiting before it is dropped (its client is not
    /// reading). A milestone is one event, however large; so is an intake batch.
    pub stream_buffer: usize,
    /// Concurrent streams per connection (HTTP/2 `MAX_CONCURRENT_STREAMS`). Hornet allows
    /// 10; inx-mqtt with every topic holds 7.
    pub max_concurrent_streams: u32,
    /// How long ComputeWhiteFlag waits for parents this node does not have yet (Hornet's
    /// `tangle.whiteFlagParentsSolidTimeout`).
    pub white_flag_parents_timeout: Duration,
    /// Mining for SubmitBlock (the REST API's settings: `restApi.pow`).
    pub pow: PowConfig,
    /// The node's REST API for PerformAPIRequest; None: the REST API is not reachable and
    /// the REST RPCs answer `UNAVAILABLE`, as Hornet's without its REST component.
    pub rest: Option<RestLoopback>,
    /// Route groups that parts of the node serve themselves: an extension cannot register
    /// them (`ALREADY_EXISTS`, naming the flag that switches the part off).
    pub reserved_routes: Vec<crate::ReservedRoute>,
}

impl Default for InxConfig {
    fn default() -> Self {
        InxConfig {
            bind_address: "localhost:9029".into(),
            base_token: BaseToken::default(),
            stream_buffer: 1024,
            max_concurrent_streams: 32,
            white_flag_parents_timeout: Duration::from_secs(2),
            pow: PowConfig::default(),
            rest: None,
            reserved_routes: Vec::new(),
        }
    }
}

/// Hornet's `protocol.baseToken`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseToken {
    pub name: String,
    pub ticker_symbol: String,
    pub unit: String,
    pub subunit: String,
    pub decimals: u32,
    pub use_metric_prefix: bool,
}

impl Default for BaseToken {
    fn default() -> Self {
        BaseToken {
            name: "Ledger Dev Token".into(),
            ticker_symbol: "TST".into(),
            unit: "TST".into(),
            subunit: "microTST".into(),
            decimals: 6,
            use_metric_prefix: false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct PowConfig {
    /// The node mines blocks submitted with nonce 0 (`restApi.pow.enabled`); without it,
    /// such a block that needs a proof of work is refused with `UNAVAILABLE`.
    pub enabled: bool,
    /// Worker threads per block (0: all cores).
    pub threads: usize,
    /// A block whose parents the node selected gets fresh tips this often while it is
    /// mined (Hornet's `pow.refreshTipsInterval`).
    pub refresh_tips_interval: Duration,
    /// How long one block may take in all, waiting in the pool's queue included.
    pub timeout: Duration,
}

impl Default for PowConfig {
    fn default() -> Self {
        PowConfig {
            enabled: true,
            threads: 0,
            refresh_tips_interval: Duration::from_secs(5),
            timeout: Duration::from_secs(60),
        }
    }
}

/// Where PerformAPIRequest sends its requests: the node's REST API on loopback, with a
/// credential of the node's own (a JWT signed with its secret), so that the extension's
/// request passes the auth rules as Hornet's in-process call bypasses them.
#[derive(Clone, Debug)]
pub struct RestLoopback {
    /// host:port of the REST API.
    pub address: String,
    /// The `Authorization` header value sent with every request.
    pub authorization: String,
}

/// What the server notes for the node's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InxEvent {
    Listening {
        address: String,
    },
    /// A stream whose client did not keep up was dropped.
    StreamDropped {
        rpc: &'static str,
        buffered: usize,
    },
    RouteRegistered {
        route: String,
        target: String,
    },
    RouteUnregistered {
        route: String,
    },
    /// A stream ended with an error of the node's side (storage).
    StreamFailed {
        rpc: &'static str,
        error: String,
    },
}

/// The node around the server: gossip (broadcast of submitted blocks, peers, the highest
/// milestone index peers announced) and the log. Every method has a default for a node
/// without gossip.
pub trait Node: Send + Sync + 'static {
    /// A block SubmitBlock stored: broadcast it (the REST API's blocks take the same way).
    fn block_submitted(&self, _block_id: Id32, _bytes: Vec<u8>) {}

    /// Connected gossip peers; None when the node runs without gossip (a network of one
    /// node, healthy by itself).
    fn connected_peers(&self) -> BoxFuture<'static, Option<usize>> {
        Box::pin(async { None })
    }

    /// The highest milestone index peers have announced (0: none or no gossip).
    fn latest_seen_milestone(&self) -> u32 {
        0
    }

    fn event(&self, _event: InxEvent) {}
}

/// A node without gossip and without a log.
pub struct NoNode;

impl Node for NoNode {}
