//! The server: its own Tokio runtime (two worker threads, never the Node event loop), a
//! listener on every address `inx.bindAddress` resolves to, tonic with grpc-go's settings
//! as Hornet sets them (keepalive pings every 20 s, 5 s to answer; message size limits of
//! grpc-go's defaults), and the service that hands each RPC to its group's file.

use crate::api_routes::{self, RouteRegistry};
use crate::config::{InxConfig, InxEvent, Node};
use crate::proto::inx_server::{Inx, InxServer as InxService};
use crate::proto::*;
use crate::streams::ResponseStream;
use crate::{blocks, milestones, node, tips, utxo};
use futures::StreamExt;
use ledger_core::pow::MiningPool;
use ledger_store::Store;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::runtime::Runtime;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::{Request, Response, Status};

/// How long stopping waits for connections to close.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// What every RPC works with.
pub struct Context {
    pub store: Arc<Store>,
    pub config: InxConfig,
    pub node: Arc<dyn Node>,
    /// The node's mining pool (shared with the REST API); None: no mining here.
    pub pool: Option<Arc<MiningPool>>,
    pub routes: Arc<RouteRegistry>,
    /// Turns true when the server stops: every stream ends with `CANCELLED`.
    pub shutdown: watch::Receiver<bool>,
}

#[derive(Debug)]
pub enum StartError {
    Runtime(std::io::Error),
    /// `inx.bindAddress` does not resolve.
    Resolve(String),
    /// No address could be listened on.
    Bind(Vec<(SocketAddr, std::io::Error)>),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Runtime(e) => write!(f, "cannot start the INX runtime: {e}"),
            StartError::Resolve(e) => write!(f, "inx.bindAddress: {e}"),
            StartError::Bind(failed) => {
                let list: Vec<String> = failed.iter().map(|(a, e)| format!("{a}: {e}")).collect();
                write!(f, "cannot listen: {}", list.join("; "))
            }
        }
    }
}

impl std::error::Error for StartError {}

pub struct InxServer {
    runtime: Option<Runtime>,
    stop: watch::Sender<bool>,
    serving: Option<JoinHandle<()>>,
    addresses: Vec<SocketAddr>,
    routes: Arc<RouteRegistry>,
}

impl InxServer {
    /// Listen on `config.bind_address` and serve. `pool` is the node's mining pool for
    /// SubmitBlock (the REST API's, so that both keep to its bounds).
    pub fn start(
        store: Arc<Store>,
        config: InxConfig,
        node: Arc<dyn Node>,
        pool: Option<Arc<MiningPool>>,
    ) -> Result<InxServer, StartError> {
        let addresses: Vec<SocketAddr> = config
            .bind_address
            .to_socket_addrs()
            .map_err(|e| StartError::Resolve(format!("{}: {e}", config.bind_address)))?
            .fold(Vec::new(), |mut list, a| {
                if !list.contains(&a) {
                    list.push(a);
                }
                list
            });
        if addresses.is_empty() {
            return Err(StartError::Resolve(format!("{} names no address", config.bind_address)));
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("ledger-inx")
            .enable_all()
            .build()
            .map_err(StartError::Runtime)?;
        let (listeners, failed) = runtime.block_on(async {
            let (mut ok, mut failed) = (Vec::new(), Vec::new());
            for a in &addresses {
                match TcpListener::bind(a).await {
                    Ok(listener) => ok.push(listener),
                    Err(e) => failed.push((*a, e)),
                }
            }
            (ok, failed)
        });
        if listeners.is_empty() {
            // Dropping a runtime inside another one panics; this works from any context.
            runtime.shutdown_background();
            return Err(StartError::Bind(failed));
        }
        let bound: Vec<SocketAddr> = listeners.iter().filter_map(|l| l.local_addr().ok()).collect();
        let (stop, shutdown) = watch::channel(false);
        let routes = Arc::new(RouteRegistry::new(config.reserved_routes.clone()));
        let max_streams = config.max_concurrent_streams;
        let log = node.clone();
        let ctx = Arc::new(Context {
            store,
            config,
            node: node.clone(),
            pool,
            routes: routes.clone(),
            shutdown: shutdown.clone(),
        });
        let incoming = futures::stream::select_all(listeners.into_iter().map(|l| {
            TcpListenerStream::new(l).map(|accepted| {
                accepted.inspect(|stream| {
                    let _ = stream.set_nodelay(true);
                })
            })
        }));
        let service = InxService::new(Service { ctx });
        let mut stopping = shutdown;
        let serving = runtime.spawn(async move {
            let served = tonic::transport::Server::builder()
                .http2_keepalive_interval(Some(Duration::from_secs(20)))
                .http2_keepalive_timeout(Some(Duration::from_secs(5)))
                .max_concurrent_streams(Some(max_streams))
                .add_service(service)
                .serve_with_incoming_shutdown(incoming, async move {
                    let _ = stopping.wait_for(|stop| *stop).await;
                })
                .await;
            if let Err(e) = served {
                node.event(InxEvent::StreamFailed { rpc: "server", error: e.to_string() });
            }
        });
        for a in &bound {
            log.event(InxEvent::Listening { address: a.to_string() });
        }
        Ok(InxServer {
            runtime: Some(runtime),
            stop,
            serving: Some(serving),
            addresses: bound,
            routes,
        })
    }

    /// The addresses listened on (with the port the OS chose for port 0).
    pub fn local_addresses(&self) -> &[SocketAddr] {
        &self.addresses
    }

    /// The routes extensions registered, for the REST API's proxy and `/api/routes`.
    pub fn routes(&self) -> Arc<RouteRegistry> {
        self.routes.clone()
    }

    /// End every stream (`CANCELLED`), close the connections and stop the runtime.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        let _ = self.stop.send(true);
        let Some(runtime) = self.runtime.take() else { return };
        let serving = self.serving.take();
        if tokio::runtime::Handle::try_current().is_ok() {
            // Inside another runtime (a test's): blocking here would panic.
            runtime.shutdown_background();
            return;
        }
        if let Some(serving) = serving {
            let _ = runtime.block_on(async { tokio::time::timeout(STOP_GRACE, serving).await });
        }
        runtime.shutdown_timeout(Duration::from_secs(1));
    }
}

impl Drop for InxServer {
    fn drop(&mut self) {
        self.shut_down();
    }
}

struct Service {
    ctx: Arc<Context>,
}

#[tonic::async_trait]
impl Inx for Service {
    async fn read_node_status(&self, _: Request<NoParams>) -> Result<Response<NodeStatus>, Status> {
        node::read_node_status(&self.ctx).await
    }

    type ListenToNodeStatusStream = ResponseStream<NodeStatus>;
    async fn listen_to_node_status(
        &self,
        request: Request<NodeStatusRequest>,
    ) -> Result<Response<Self::ListenToNodeStatusStream>, Status> {
        node::listen_to_node_status(&self.ctx, request.into_inner())
    }

    async fn read_node_configuration(
        &self,
        _: Request<NoParams>,
    ) -> Result<Response<NodeConfiguration>, Status> {
        Ok(Response::new(node::read_node_configuration(&self.ctx)))
    }

    async fn read_protocol_parameters(
        &self,
        request: Request<MilestoneRequest>,
    ) -> Result<Response<RawProtocolParameters>, Status> {
        node::read_protocol_parameters(&self.ctx, request.into_inner()).await
    }

    async fn read_milestone(
        &self,
        request: Request<MilestoneRequest>,
    ) -> Result<Response<Milestone>, Status> {
        milestones::read_milestone(&self.ctx, request.into_inner()).await
    }

    type ListenToLatestMilestonesStream = ResponseStream<Milestone>;
    async fn listen_to_latest_milestones(
        &self,
        _: Request<NoParams>,
    ) -> Result<Response<Self::ListenToLatestMilestonesStream>, Status> {
        Ok(milestones::listen_to_latest_milestones(&self.ctx))
    }

    type ListenToConfirmedMilestonesStream = ResponseStream<MilestoneAndProtocolParameters>;
    async fn listen_to_confirmed_milestones(
        &self,
        request: Request<MilestoneRangeRequest>,
    ) -> Result<Response<Self::ListenToConfirmedMilestonesStream>, Status> {
        milestones::listen_to_confirmed_milestones(&self.ctx, request.into_inner()).await
    }

    async fn compute_white_flag(
        &self,
        request: Request<WhiteFlagRequest>,
    ) -> Result<Response<WhiteFlagResponse>, Status> {
        milestones::compute_white_flag(&self.ctx, request.into_inner()).await
    }

    type ReadMilestoneConeStream = ResponseStream<BlockWithMetadata>;
    async fn read_milestone_cone(
        &self,
        request: Request<MilestoneRequest>,
    ) -> Result<Response<Self::ReadMilestoneConeStream>, Status> {
        milestones::read_milestone_cone(&self.ctx, request.into_inner()).await
    }

    type ReadMilestoneConeMetadataStream = ResponseStream<BlockMetadata>;
    async fn read_milestone_cone_metadata(
        &self,
        request: Request<MilestoneRequest>,
    ) -> Result<Response<Self::ReadMilestoneConeMetadataStream>, Status> {
        milestones::read_milestone_cone_metadata(&self.ctx, request.into_inner()).await
    }

    type ListenToBlocksStream = ResponseStream<Block>;
    async fn listen_to_blocks(
        &self,
        _: Request<NoParams>,
    ) -> Result<Response<Self::ListenToBlocksStream>, Status> {
        Ok(blocks::listen_to_blocks(&self.ctx))
    }

    type ListenToSolidBlocksStream = ResponseStream<BlockMetadata>;
    async fn listen_to_solid_blocks(
        &self,
        _: Request<NoParams>,
    ) -> Result<Response<Self::ListenToSolidBlocksStream>, Status> {
        Ok(blocks::listen_to_solid_blocks(&self.ctx))
    }

    type ListenToReferencedBlocksStream = ResponseStream<BlockMetadata>;
    async fn listen_to_referenced_blocks(
        &self,
        _: Request<NoParams>,
    ) -> Result<Response<Self::ListenToReferencedBlocksStream>, Status> {
        Ok(blocks::listen_to_referenced_blocks(&self.ctx))
    }

    async fn submit_block(&self, request: Request<RawBlock>) -> Result<Response<BlockId>, Status> {
        blocks::submit_block(&self.ctx, request.into_inner()).await
    }

    async fn read_block(&self, request: Request<BlockId>) -> Result<Response<RawBlock>, Status> {
        blocks::read_block(&self.ctx, request.into_inner()).await
    }

    async fn read_block_metadata(
        &self,
        request: Request<BlockId>,
    ) -> Result<Response<BlockMetadata>, Status> {
        blocks::read_block_metadata(&self.ctx, request.into_inner()).await
    }

    async fn request_tips(
        &self,
        request: Request<TipsRequest>,
    ) -> Result<Response<TipsResponse>, Status> {
        tips::request_tips(&self.ctx, request.into_inner()).await
    }

    type ListenToTipsMetricsStream = ResponseStream<TipsMetric>;
    async fn listen_to_tips_metrics(
        &self,
        request: Request<TipsMetricRequest>,
    ) -> Result<Response<Self::ListenToTipsMetricsStream>, Status> {
        tips::listen_to_tips_metrics(&self.ctx, request.into_inner())
    }

    type ListenToTipScoreUpdatesStream = ResponseStream<BlockMetadata>;
    async fn listen_to_tip_score_updates(
        &self,
        _: Request<NoParams>,
    ) -> Result<Response<Self::ListenToTipScoreUpdatesStream>, Status> {
        Ok(tips::listen_to_tip_score_updates(&self.ctx))
    }

    type ReadUnspentOutputsStream = ResponseStream<UnspentOutput>;
    async fn read_unspent_outputs(
        &self,
        _: Request<NoParams>,
    ) -> Result<Response<Self::ReadUnspentOutputsStream>, Status> {
        Ok(utxo::read_unspent_outputs(&self.ctx))
    }

    type ListenToLedgerUpdatesStream = ResponseStream<LedgerUpdate>;
    async fn listen_to_ledger_updates(
        &self,
        request: Request<MilestoneRangeRequest>,
    ) -> Result<Response<Self::ListenToLedgerUpdatesStream>, Status> {
        utxo::listen_to_ledger_updates(&self.ctx, request.into_inner()).await
    }

    type ListenToTreasuryUpdatesStream = ResponseStream<TreasuryUpdate>;
    async fn listen_to_treasury_updates(
        &self,
        request: Request<MilestoneRangeRequest>,
    ) -> Result<Response<Self::ListenToTreasuryUpdatesStream>, Status> {
        utxo::listen_to_treasury_updates(&self.ctx, request.into_inner()).await
    }

    async fn read_output(
        &self,
        request: Request<OutputId>,
    ) -> Result<Response<OutputResponse>, Status> {
        utxo::read_output(&self.ctx, request.into_inner()).await
    }

    type ListenToMigrationReceiptsStream = ResponseStream<RawReceipt>;
    async fn listen_to_migration_receipts(
        &self,
        _: Request<NoParams>,
    ) -> Result<Response<Self::ListenToMigrationReceiptsStream>, Status> {
        Ok(utxo::listen_to_migration_receipts(&self.ctx))
    }

    async fn register_api_route(
        &self,
        request: Request<ApiRouteRequest>,
    ) -> Result<Response<NoParams>, Status> {
        api_routes::register(&self.ctx, request.into_inner())
    }

    async fn unregister_api_route(
        &self,
        request: Request<ApiRouteRequest>,
    ) -> Result<Response<NoParams>, Status> {
        api_routes::unregister(&self.ctx, request.into_inner())
    }

    async fn perform_api_request(
        &self,
        request: Request<ApiRequest>,
    ) -> Result<Response<ApiResponse>, Status> {
        crate::perform::perform_api_request(&self.ctx, request.into_inner()).await
    }
}
