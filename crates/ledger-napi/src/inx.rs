//! The INX server for JavaScript (`crates/ledger-inx`): options in, a handle out, start and
//! stop. The server runs on its own Tokio runtime inside ledger-inx, never on the Node event
//! loop; this file only converts. The HTTP side reads the routes extensions registered
//! (`routes`, `proxyTarget`) for `/api/routes` and the proxy, from any thread: the worker
//! threads attach by data directory, as they do to gossip.
//!
//! Errors: `start` throws `inx-start` (the address does not resolve or cannot be listened
//! on) or `store-closed`; `attach` throws `inx-stopped` when no server runs. The other calls
//! never fail.

use crate::errors::{invalid_argument, to_napi, Result};
use crate::gossip::running_gossip;
use crate::pow::MiningPool;
use crate::shared::Shared;
use crate::store::{store_key, LedgerStore};
use futures::future::BoxFuture;
use ledger_core::model::Id32;
use ledger_core::{Code, Error};
use ledger_inx::{
    BaseToken, InxConfig, InxEvent, InxServer, PowConfig, ReservedRoute, RestLoopback,
    RouteRegistry,
};
use ledger_sync::LocalBlocks;
use napi::bindgen_prelude::{Function, Unknown};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[napi(object)]
pub struct InxBaseTokenJs {
    pub name: String,
    pub ticker_symbol: String,
    pub unit: String,
    pub subunit: String,
    pub decimals: u32,
    pub use_metric_prefix: bool,
}

#[napi(object)]
pub struct InxReservedRouteJs {
    /// A route group the node serves itself, e.g. `indexer/v1`.
    pub route: String,
    /// The flag that switches that part off (named in the refusal), if there is one.
    pub flag: Option<String>,
}

#[napi(object)]
pub struct InxStartOptions {
    /// `inx.bindAddress`: host:port (port 0: the OS picks one).
    pub bind_address: String,
    /// host:port of the node's REST API, for PerformAPIRequest.
    pub rest_address: String,
    /// The `Authorization` header PerformAPIRequest sends (`Bearer <the node's own JWT>`).
    pub rest_authorization: String,
    /// Route groups an extension may not register.
    pub reserved_routes: Vec<InxReservedRouteJs>,
    pub base_token: InxBaseTokenJs,
    /// `restApi.pow.enabled`: SubmitBlock mines blocks that come without a nonce.
    pub pow_enabled: bool,
    /// Workers per mined block (0: all cores).
    pub pow_threads: u32,
    /// How long one SubmitBlock may mine, in milliseconds.
    pub pow_timeout_ms: u32,
}

#[napi(object)]
pub struct InxProxyTargetJs {
    pub route: String,
    pub host: String,
    pub port: u32,
    /// Empty, or starting with "/": put in front of the forwarded path.
    pub path: String,
}

#[napi(object)]
pub struct InxEventJs {
    /// `listening`, `stream-dropped`, `stream-failed`, `route-registered`, `route-unregistered`.
    pub kind: String,
    pub detail: String,
}

fn event_js(event: InxEvent) -> InxEventJs {
    let (kind, detail) = match event {
        InxEvent::Listening { address } => ("listening", address),
        InxEvent::StreamDropped { rpc, buffered } => {
            ("stream-dropped", format!("{rpc}: the client did not read {buffered} events"))
        }
        InxEvent::StreamFailed { rpc, error } => ("stream-failed", format!("{rpc}: {error}")),
        InxEvent::RouteRegistered { route, target } => {
            ("route-registered", format!("{route} → {target}"))
        }
        InxEvent::RouteUnregistered { route } => ("route-unregistered", route),
    };
    InxEventJs { kind: kind.into(), detail }
}

type EventCallback =
    ThreadsafeFunction<InxEvent, Unknown<'static>, InxEventJs, napi::Status, false, true>;

/// The node around the server: gossip through the store's hook and its running service
/// (found by the store's key when asked), events to the JavaScript callback.
struct NodeBridge {
    key: String,
    local: Arc<LocalBlocks>,
    on_event: Mutex<Option<EventCallback>>,
}

impl ledger_inx::Node for NodeBridge {
    fn block_submitted(&self, block_id: Id32, bytes: Vec<u8>) {
        self.local.announce(vec![(block_id, bytes)]);
    }

    fn connected_peers(&self) -> BoxFuture<'static, Option<usize>> {
        let gossip = running_gossip(&self.key);
        Box::pin(async move {
            let gossip = gossip?;
            // Stopped meanwhile: as a node without gossip.
            let peers = gossip.gossip().peers().await.ok()?;
            Some(peers.iter().filter(|p| p.connected).count())
        })
    }

    fn latest_seen_milestone(&self) -> u32 {
        running_gossip(&self.key).map_or(0, |g| g.status().sync.latest)
    }

    fn event(&self, event: InxEvent) {
        let slot = self.on_event.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(callback) = slot.as_ref() {
            callback.call(event, ThreadsafeFunctionCallMode::NonBlocking);
        }
    }
}

/// The route registry of the server running over a store, by the store's key (`attach`).
static ROUTES: Shared<RouteRegistry> = Shared::new();

#[napi]
pub struct InxNode {
    /// The server, on the handle that started it; None once stopped and on attached handles.
    server: Mutex<Option<InxServer>>,
    bridge: Option<Arc<NodeBridge>>,
    routes: Arc<RouteRegistry>,
    addresses: Vec<String>,
}

#[napi]
impl InxNode {
    /// Listen on `options.bindAddress` and serve INX over `store`; SubmitBlock mines on
    /// `miner` (the REST API's pool).
    #[napi(factory)]
    pub fn start(
        store: &LedgerStore,
        miner: &MiningPool,
        options: InxStartOptions,
    ) -> Result<InxNode> {
        let inner = store.get()?;
        let reserved_routes = options
            .reserved_routes
            .into_iter()
            .map(|r| ReservedRoute { route: r.route, flag: r.flag })
            .collect();
        let t = options.base_token;
        let config = InxConfig {
            bind_address: options.bind_address,
            base_token: BaseToken {
                name: t.name,
                ticker_symbol: t.ticker_symbol,
                unit: t.unit,
                subunit: t.subunit,
                decimals: t.decimals,
                use_metric_prefix: t.use_metric_prefix,
            },
            pow: PowConfig {
                enabled: options.pow_enabled,
                threads: options.pow_threads as usize,
                timeout: Duration::from_millis(options.pow_timeout_ms.into()),
                ..PowConfig::default()
            },
            rest: Some(RestLoopback {
                address: options.rest_address,
                authorization: options.rest_authorization,
            }),
            reserved_routes,
            ..InxConfig::default()
        };
        if config.bind_address.is_empty() {
            return Err(invalid_argument("inx.bindAddress", "empty"));
        }
        let bridge = Arc::new(NodeBridge {
            key: store.key.clone(),
            local: store.local.clone(),
            on_event: Mutex::new(None),
        });
        let server = InxServer::start(inner, config, bridge.clone(), Some(miner.pool()))
            .map_err(|e| to_napi(Error::new(Code::InxStart, "inx.bindAddress", e.to_string())))?;
        let routes = server.routes();
        ROUTES.publish(store.key.clone(), &routes);
        let addresses = server.local_addresses().iter().map(|a| a.to_string()).collect();
        Ok(InxNode { server: Mutex::new(Some(server)), bridge: Some(bridge), routes, addresses })
    }

    /// The routes of the server running over the store in `dataDir` (for an HTTP worker
    /// thread's proxy and `/api/routes`). Fails with `inx-stopped` when none runs.
    #[napi(factory)]
    pub fn attach(data_dir: String) -> Result<InxNode> {
        let routes = ROUTES.find(&store_key(&data_dir)).ok_or_else(|| {
            to_napi(Error::new(Code::InxStopped, "", "no INX server runs over this store"))
        })?;
        Ok(InxNode { server: Mutex::new(None), bridge: None, routes, addresses: Vec::new() })
    }

    /// The addresses listened on, `host:port` (empty on an attached handle).
    #[napi]
    pub fn local_addresses(&self) -> Vec<String> {
        self.addresses.clone()
    }

    /// The route groups extensions registered, in registration order.
    #[napi]
    pub fn routes(&self) -> Vec<String> {
        self.routes.names()
    }

    /// The extension that serves `path` (`/api/<route>` or below), if one registered it.
    #[napi]
    pub fn proxy_target(&self, path: String) -> Option<InxProxyTargetJs> {
        self.routes.target_of(&path).map(|t| InxProxyTargetJs {
            route: t.route,
            host: t.host,
            port: t.port.into(),
            path: t.path,
        })
    }

    /// Deliver the server's events (listening, routes registered, streams dropped) to
    /// `callback` on the main thread. Weak: it never keeps Node running by itself.
    #[napi(ts_args_type = "callback: (event: InxEventJs) => void")]
    pub fn on_event(&self, callback: Function<'_, InxEventJs, Unknown<'static>>) -> Result<()> {
        let Some(bridge) = &self.bridge else { return Ok(()) };
        let tsfn: EventCallback = callback
            .build_threadsafe_function::<InxEvent>()
            .callee_handled::<false>()
            .weak::<true>()
            .build_callback(|ctx| Ok(event_js(ctx.value)))
            .map_err(|e| to_napi(Error::new(Code::BindingFailure, "", e.to_string())))?;
        *bridge.on_event.lock().unwrap_or_else(|p| p.into_inner()) = Some(tsfn);
        Ok(())
    }

    /// End every stream (CANCELLED), close the connections and stop the server's runtime
    /// (a few seconds at most). Nothing on an attached handle.
    #[napi]
    pub fn stop(&self) {
        let server = self.server.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(server) = server {
            server.stop();
        }
        if let Some(bridge) = &self.bridge {
            ROUTES.withdraw(&bridge.key, &self.routes);
            bridge.on_event.lock().unwrap_or_else(|p| p.into_inner()).take();
        }
    }
}
