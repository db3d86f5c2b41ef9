//! RegisterAPIRoute, UnregisterAPIRoute and PerformAPIRequest. A small HTTP server in the
//! test plays the node's REST API, so that what PerformAPIRequest sends over loopback (the
//! node's credential in place of the extension's) and how answers come back (the node's
//! errors as gRPC errors, a proxied extension's as they are) can be seen.

use crate::common::*;
use ledger_inx::proto::{ApiRequest, ApiRouteRequest};
use ledger_inx::RestLoopback;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tonic::Code;

const TOKEN: &str = "Bearer node-internal-token";

fn route(route: &str, host: &str, port: u32, path: &str) -> ApiRouteRequest {
    ApiRouteRequest { route: route.into(), host: host.into(), port, path: path.into() }
}

/// Answers every request by its path; records the request heads.
async fn fake_rest_api(listener: tokio::net::TcpListener, heads: Arc<Mutex<Vec<String>>>) {
    loop {
        let Ok((mut socket, _)) = listener.accept().await else { return };
        let heads = heads.clone();
        tokio::spawn(async move {
            let mut buffer = Vec::new();
            let mut chunk = [0u8; 4096];
            let head_end = loop {
                let n = socket.read(&mut chunk).await.unwrap();
                if n == 0 {
                    return;
                }
                buffer.extend_from_slice(&chunk[..n]);
                if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                    break at;
                }
            };
            let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
            let length: usize = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse().unwrap())
                })
                .unwrap_or(0);
            while buffer.len() < head_end + 4 + length {
                let n = socket.read(&mut chunk).await.unwrap();
                buffer.extend_from_slice(&chunk[..n]);
            }
            let body = buffer[head_end + 4..].to_vec();
            let path = head.split(' ').nth(1).unwrap().to_string();
            heads.lock().unwrap().push(head);
            let (status, extra, content) = match path.split('?').next().unwrap() {
                "/api/routes" => (
                    "200 OK",
                    "X-Multi: a\r\nX-Multi: b\r\n",
                    br#"{"routes":["core/v2"]}"#.to_vec(),
                ),
                "/api/core/v2/echo" => ("201 Created", "", body),
                "/api/poi/v1/missing" => ("404 Not Found", "", b"no such proof".to_vec()),
                "/api/core/v2/huge" => ("200 OK", "", vec![b'x'; 5 << 20]),
                _ => (
                    "404 Not Found",
                    "",
                    br#"{"error":{"code":"404","message":"could not find data: no route"}}"#
                        .to_vec(),
                ),
            };
            let reply = format!(
                "HTTP/1.1 {status}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n",
                content.len()
            );
            let _ = socket.write_all(reply.as_bytes()).await;
            let _ = socket.write_all(&content).await;
        });
    }
}

fn with_rest() -> (Harness, Arc<Mutex<Vec<String>>>) {
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let heads = Arc::new(Mutex::new(Vec::new()));
    rt.spawn(fake_rest_api(listener, heads.clone()));
    // The fake API lives as long as the test: its runtime is leaked on purpose.
    std::mem::forget(rt);
    let rest = RestLoopback { address, authorization: TOKEN.into() };
    (Harness::with(Options { rest: Some(rest), ..Options::default() }), heads)
}

#[test]
fn routes_register_replace_and_unregister_with_hornets_checks() {
    let (h, _) = with_rest();
    let mut client = h.client();
    let code = |r: ApiRouteRequest| h.run(h.client().register_api_route(r)).unwrap_err().code();
    assert_eq!(code(route("", "localhost", 1, "")), Code::InvalidArgument);
    assert_eq!(code(route("poi/v1", "", 1, "")), Code::InvalidArgument);
    assert_eq!(code(route("poi/v1", "localhost", 0, "")), Code::InvalidArgument);
    assert_eq!(code(route("poi/v1", "localhost", 1, "api")), Code::Internal);
    // A group the node serves itself.
    let err = h
        .run(client.register_api_route(route("indexer/v1", "localhost", 9091, "/api/indexer/v1")))
        .unwrap_err();
    assert_eq!(err.code(), Code::AlreadyExists);
    assert!(err.message().contains("--no-indexer"), "{}", err.message());
    assert_eq!(code(route("core/v2", "localhost", 1, "")), Code::AlreadyExists);

    h.run(client.register_api_route(route("poi/v1", "localhost", 9687, "/api/poi/v1"))).unwrap();
    h.run(client.register_api_route(route("spammer/v1", "localhost", 9092, "/api/spammer/v1")))
        .unwrap();
    h.run(client.register_api_route(route("poi/v1", "127.0.0.1", 9688, "/api/poi/v1"))).unwrap();
    let routes = h.server.as_ref().unwrap().routes();
    assert_eq!(routes.names(), vec!["poi/v1", "spammer/v1"]);
    let target = routes.target_of("/api/poi/v1/create").unwrap();
    assert_eq!(
        (target.host.as_str(), target.port, target.path.as_str()),
        ("127.0.0.1", 9688, "/api/poi/v1")
    );
    let empty = ApiRouteRequest::default();
    assert_eq!(
        h.run(client.unregister_api_route(empty)).unwrap_err().code(),
        Code::InvalidArgument
    );
    h.run(client.unregister_api_route(route("poi/v1", "", 0, ""))).unwrap();
    h.run(client.unregister_api_route(route("never/v1", "", 0, ""))).unwrap();
    assert_eq!(routes.names(), vec!["spammer/v1"]);
    assert!(h.events().iter().any(
        |e| matches!(e, ledger_inx::InxEvent::RouteRegistered { route, .. } if route == "poi/v1")
    ));
}

#[test]
fn without_a_rest_api_the_rest_rpcs_are_unavailable() {
    let h = Harness::new();
    let mut client = h.client();
    let err = h.run(client.register_api_route(route("poi/v1", "localhost", 1, ""))).unwrap_err();
    assert_eq!(err.code(), Code::Unavailable);
    let err = h
        .run(client.perform_api_request(ApiRequest {
            method: "GET".into(),
            path: "/api/routes".into(),
            ..Default::default()
        }))
        .unwrap_err();
    assert_eq!(err.code(), Code::Unavailable);
}

#[test]
fn api_requests_go_to_the_rest_api_with_the_nodes_credential() {
    let (h, heads) = with_rest();
    let mut client = h.client();
    let request = |method: &str, path: &str, body: &[u8]| ApiRequest {
        method: method.into(),
        path: path.into(),
        headers: HashMap::from([
            ("Accept".to_string(), "application/json".to_string()),
            ("Authorization".to_string(), "Bearer the-extensions-own".to_string()),
        ]),
        body: body.to_vec(),
    };
    let answer = h
        .run(client.perform_api_request(request("GET", "/api/routes?x=1", b"")))
        .unwrap()
        .into_inner();
    assert_eq!(answer.code, 200);
    assert_eq!(answer.body, br#"{"routes":["core/v2"]}"#);
    assert_eq!(answer.headers.get("x-multi").map(String::as_str), Some("a, b"));
    let head = heads.lock().unwrap()[0].clone();
    assert!(head.starts_with("GET /api/routes?x=1 HTTP/1.1"), "{head}");
    assert!(head.contains(&format!("authorization: {TOKEN}")), "{head}");
    assert!(!head.contains("the-extensions-own"));
    assert!(head.contains("accept: application/json"));
    // A body goes along; the status comes back.
    let echoed = h
        .run(client.perform_api_request(request("POST", "/api/core/v2/echo", b"{\"a\":1}")))
        .unwrap()
        .into_inner();
    assert_eq!((echoed.code, echoed.body), (201, b"{\"a\":1}".to_vec()));
    // The node's own error: a gRPC error as Hornet's echo error reads.
    let err = h
        .run(client.perform_api_request(request("GET", "/api/core/v2/blocks/0x00", b"")))
        .unwrap_err();
    assert_eq!(err.code(), Code::Unknown);
    assert_eq!(err.message(), "code=404, message=could not find data: no route");
    // A registered extension's error comes back as its response.
    h.run(client.register_api_route(route("poi/v1", "localhost", 9687, "/api/poi/v1"))).unwrap();
    let proxied = h
        .run(client.perform_api_request(request("GET", "/api/poi/v1/missing", b"")))
        .unwrap()
        .into_inner();
    assert_eq!((proxied.code, proxied.body), (404, b"no such proof".to_vec()));
    // More than a Go client receives in one message.
    let err =
        h.run(client.perform_api_request(request("GET", "/api/core/v2/huge", b""))).unwrap_err();
    assert_eq!(err.code(), Code::ResourceExhausted);
    let err = h.run(client.perform_api_request(request("GE T", "/api/routes", b""))).unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);
}
