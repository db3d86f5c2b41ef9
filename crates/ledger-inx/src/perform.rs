//! PerformAPIRequest: an extension's request to the node's own REST API (iota.go's
//! nodeclient over INX: `/api/routes`, `core/v2/info`, peers, the indexer, …).
//!
//! Hornet calls its router in process and skips the global middleware, JWT included. This
//! node's REST API runs on the JavaScript side, so the request goes there over loopback,
//! with the node's own credential in place of the extension's `Authorization` header (a
//! JWT signed with the node's secret): every route answers as it would for an operator,
//! and routes extensions registered are reached through the same proxy as from outside.
//!
//! Answers as Hornet's: a response of a route the node serves itself with an error status
//! becomes a gRPC error (UNKNOWN, "code=<status>, message=<text>"), a proxied extension's
//! response comes back as it is, with any status. Header values are joined with ", ".
//! A body larger than Go clients receive (4 MiB per message) is RESOURCE_EXHAUSTED.

use crate::proto::{ApiRequest, ApiResponse};
use crate::server::Context;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::header::{self, HeaderName, HeaderValue};
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tonic::{Response, Status};

/// The largest message a grpc-go client receives, less room for the headers.
const MAX_BODY: usize = 4 * 1024 * 1024 - 64 * 1024;
/// How long one request may take, connecting included.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Request headers not forwarded: the connection's own, and the extension's credential.
const NOT_FORWARDED: [HeaderName; 6] = [
    header::HOST,
    header::AUTHORIZATION,
    header::CONTENT_LENGTH,
    header::CONNECTION,
    header::TRANSFER_ENCODING,
    header::UPGRADE,
];

pub async fn perform_api_request(
    ctx: &Arc<Context>,
    request: ApiRequest,
) -> Result<Response<ApiResponse>, Status> {
    let Some(rest) = ctx.config.rest.clone() else {
        return Err(Status::unavailable("RestAPI plugin is not enabled"));
    };
    let method = Method::from_bytes(request.method.as_bytes())
        .map_err(|_| Status::invalid_argument(format!("invalid method {:?}", request.method)))?;
    if !request.path.starts_with('/') {
        return Err(Status::invalid_argument(format!("invalid path {:?}", request.path)));
    }
    let route_path = request.path.split('?').next().unwrap_or_default();
    let proxied = ctx.routes.target_of(route_path).is_some();
    let mut builder = Request::builder()
        .method(method)
        .uri(request.path.as_str())
        .header(header::HOST, rest.address.as_str())
        .header(header::AUTHORIZATION, rest.authorization.as_str());
    for (name, value) in &request.headers {
        let (Ok(name), Ok(value)) =
            (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(value))
        else {
            return Err(Status::invalid_argument(format!("invalid header {name:?}")));
        };
        if !NOT_FORWARDED.contains(&name) {
            builder = builder.header(name, value);
        }
    }
    let http_request = builder
        .body(Full::new(Bytes::from(request.body)))
        .map_err(|e| Status::invalid_argument(format!("invalid request: {e}")))?;
    let exchange = async {
        let stream = TcpStream::connect(rest.address.as_str()).await.map_err(|e| {
            Status::unavailable(format!("the REST API at {} is not reachable: {e}", rest.address))
        })?;
        let _ = stream.set_nodelay(true);
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| Status::internal(format!("REST API connection: {e}")))?;
        tokio::spawn(connection);
        let response = sender
            .send_request(http_request)
            .await
            .map_err(|e| Status::internal(format!("REST API request: {e}")))?;
        let (parts, body) = response.into_parts();
        let body = Limited::new(body, MAX_BODY).collect().await.map_err(|e| {
            Status::resource_exhausted(format!(
                "the response does not fit a gRPC message of a Go client (4 MiB): {e}"
            ))
        })?;
        Ok::<_, Status>((parts, body.to_bytes()))
    };
    let (parts, body) = tokio::time::timeout(TIMEOUT, exchange)
        .await
        .map_err(|_| Status::deadline_exceeded("the REST API did not answer in time"))??;
    let code = parts.status.as_u16();
    if !proxied && code >= 400 {
        return Err(Status::unknown(format!("code={code}, message={}", error_message(&body))));
    }
    let mut headers: HashMap<String, String> = HashMap::new();
    for (name, value) in &parts.headers {
        let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
        headers
            .entry(name.as_str().to_string())
            .and_modify(|joined| {
                joined.push_str(", ");
                joined.push_str(&value);
            })
            .or_insert(value);
    }
    Ok(Response::new(ApiResponse { code: code as u32, headers, body: body.to_vec() }))
}

/// The message of the node's error body (`{"error":{"code":…,"message":…}}`), else the
/// body as text.
fn error_message(body: &[u8]) -> String {
    serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
        .unwrap_or_else(|| String::from_utf8_lossy(body).into_owned())
}
