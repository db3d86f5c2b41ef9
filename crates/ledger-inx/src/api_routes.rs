//! RegisterAPIRoute and UnregisterAPIRoute (Hornet's `components/inx/server_api.go`), and
//! the registry of routes they keep: the node's REST API (`src/server/`) proxies
//! `/api/<route>` and `/api/<route>/…` to the extension and lists the route in `/api/routes`.
//!
//! Hornet's rules: route, host and port are required (InvalidArgument), a path must be
//! empty or start with "/" (Internal, as Hornet's proxy refuses it), registering again
//! replaces the target (an extension restarted after a crash), unregistering an unknown
//! route is fine. One rule of this node: a route group a built-in part serves
//! (`indexer/v1`, `mqtt/v1`, `faucet/v1`, the core API) cannot be taken over while that
//! part runs — ALREADY_EXISTS, naming the flag that switches the part off.

use crate::config::InxEvent;
use crate::proto::{ApiRouteRequest, NoParams};
use crate::server::Context;
use std::sync::{Arc, Mutex};
use tonic::{Response, Status};

/// A route group the node serves itself, and the command-line flag that switches that part
/// off (None: always served).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReservedRoute {
    pub route: String,
    pub flag: Option<String>,
}

/// Where the REST API forwards a request under a registered route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProxyTarget {
    pub route: String,
    pub host: String,
    pub port: u16,
    /// Empty, or starting with "/": put in front of the forwarded path.
    pub path: String,
}

pub struct RouteRegistry {
    reserved: Vec<ReservedRoute>,
    /// In registration order (the order `/api/routes` lists them).
    routes: Mutex<Vec<ProxyTarget>>,
}

impl RouteRegistry {
    pub fn new(reserved: Vec<ReservedRoute>) -> RouteRegistry {
        RouteRegistry { reserved, routes: Mutex::new(Vec::new()) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<ProxyTarget>> {
        // Every edit of the list is a single push, replace or retain: never half done.
        self.routes.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The registered route names, in registration order.
    pub fn names(&self) -> Vec<String> {
        self.lock().iter().map(|t| t.route.clone()).collect()
    }

    pub fn targets(&self) -> Vec<ProxyTarget> {
        self.lock().clone()
    }

    /// The target of a request path: `/api/<route>` itself or anything below it.
    pub fn target_of(&self, path: &str) -> Option<ProxyTarget> {
        let rest = path.strip_prefix("/api/")?;
        self.lock()
            .iter()
            .filter(|t| {
                rest.strip_prefix(t.route.as_str())
                    .is_some_and(|r| r.is_empty() || r.starts_with('/'))
            })
            // The longest route wins when one registered route is inside another.
            .max_by_key(|t| t.route.len())
            .cloned()
    }

    pub fn register(&self, target: ProxyTarget) -> Result<(), Status> {
        if let Some(reserved) = self.reserved.iter().find(|r| r.route == target.route) {
            return Err(Status::already_exists(match &reserved.flag {
                Some(flag) => format!(
                    "route {} is served by this node itself: start the node with {flag} to let an extension serve it",
                    target.route
                ),
                None => format!("route {} is served by this node itself", target.route),
            }));
        }
        let mut routes = self.lock();
        match routes.iter_mut().find(|t| t.route == target.route) {
            Some(existing) => *existing = target,
            None => routes.push(target),
        }
        Ok(())
    }

    pub fn unregister(&self, route: &str) -> bool {
        let mut routes = self.lock();
        let before = routes.len();
        routes.retain(|t| t.route != route);
        routes.len() != before
    }
}

/// Hornet answers UNAVAILABLE when its REST API is off; this node's REST API always runs
/// when the node does, but a server started without one (tests, embedders) answers the same.
fn rest_available(ctx: &Context) -> Result<(), Status> {
    match ctx.config.rest {
        Some(_) => Ok(()),
        None => Err(Status::unavailable("RestAPI plugin is not enabled")),
    }
}

pub fn register(
    ctx: &Arc<Context>,
    request: ApiRouteRequest,
) -> Result<Response<NoParams>, Status> {
    rest_available(ctx)?;
    if request.route.is_empty() {
        return Err(Status::invalid_argument("route can not be empty"));
    }
    if request.host.is_empty() {
        return Err(Status::invalid_argument("host can not be empty"));
    }
    if request.port == 0 {
        return Err(Status::invalid_argument("port can not be zero"));
    }
    let port = u16::try_from(request.port).map_err(|_| {
        Status::internal(format!(
            "error adding route to proxy: port {} is not a TCP port",
            request.port
        ))
    })?;
    if !request.path.is_empty() && !request.path.starts_with('/') {
        return Err(Status::internal(
            "error adding route to proxy: if path is set, it needs to start with \"/\"",
        ));
    }
    let target = ProxyTarget { route: request.route, host: request.host, port, path: request.path };
    let shown = format!("http://{}:{}{}", target.host, target.port, target.path);
    let route = target.route.clone();
    ctx.routes.register(target)?;
    ctx.node.event(InxEvent::RouteRegistered { route, target: shown });
    Ok(Response::new(NoParams {}))
}

pub fn unregister(
    ctx: &Arc<Context>,
    request: ApiRouteRequest,
) -> Result<Response<NoParams>, Status> {
    rest_available(ctx)?;
    if request.route.is_empty() {
        return Err(Status::invalid_argument("route can not be empty"));
    }
    if ctx.routes.unregister(&request.route) {
        ctx.node.event(InxEvent::RouteUnregistered { route: request.route });
    }
    Ok(Response::new(NoParams {}))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(route: &str, port: u16) -> ProxyTarget {
        ProxyTarget { route: route.into(), host: "localhost".into(), port, path: String::new() }
    }

    #[test]
    fn routes_match_whole_segments_and_replace_on_reregistration() {
        let registry = RouteRegistry::new(vec![ReservedRoute {
            route: "indexer/v1".into(),
            flag: Some("--no-indexer".into()),
        }]);
        registry.register(target("poi/v1", 1)).unwrap();
        registry.register(target("spammer/v1", 2)).unwrap();
        registry.register(target("poi/v1", 3)).unwrap();
        assert_eq!(registry.names(), vec!["poi/v1", "spammer/v1"]);
        assert_eq!(registry.target_of("/api/poi/v1").unwrap().port, 3);
        assert_eq!(registry.target_of("/api/poi/v1/proof/create").unwrap().port, 3);
        assert!(registry.target_of("/api/poi/v10").is_none());
        assert!(registry.target_of("/poi/v1").is_none());
        let refused = registry.register(target("indexer/v1", 4)).unwrap_err();
        assert_eq!(refused.code(), tonic::Code::AlreadyExists);
        assert!(refused.message().contains("--no-indexer"));
        assert!(registry.unregister("poi/v1"));
        assert!(!registry.unregister("poi/v1"));
        assert!(registry.target_of("/api/poi/v1/x").is_none());
    }
}
