//! A listening TCP socket with SO_REUSEPORT, for `server.listen({ fd })`: every HTTP worker
//! thread opens its own on the same address and port, and the kernel spreads incoming
//! connections over them. Node 20's `listen()` has no `reusePort` option (22.12 and 23.1
//! have), and its cluster module needs processes, which could not share the store.

use crate::errors::{to_napi, Result};
use ledger_core::Code;
use napi_derive::napi;

#[napi(object)]
pub struct ListeningSocket {
    /// The socket's file descriptor; the server that listens on it owns and closes it.
    pub fd: i32,
    /// The bound port (the kernel's choice when 0 was asked).
    pub port: u32,
}

fn failure(what: &str) -> napi::Error<String> {
    to_napi(ledger_core::Error::new(
        Code::ListenFailed,
        "",
        format!("{what}: {}", std::io::Error::last_os_error()),
    ))
}

/// Whether this platform can open sockets that share a port (Linux and the BSDs).
#[napi]
pub fn reuse_port_supported() -> bool {
    cfg!(any(
        target_os = "linux",
        target_os = "android",
        target_os = "freebsd",
        target_os = "macos"
    ))
}

/// Bind `host` (an IPv4 or IPv6 literal) and `port` with SO_REUSEADDR and SO_REUSEPORT,
/// and listen. Sockets of one process (same user) on the same address share its connections.
#[napi]
pub fn listen_reuse_port(host: String, port: u32, backlog: u32) -> Result<ListeningSocket> {
    #[cfg(unix)]
    {
        unix::listen(&host, port, backlog)
    }
    #[cfg(not(unix))]
    {
        let _ = (host, port, backlog);
        Err(to_napi(ledger_core::Error::new(
            Code::ListenFailed,
            "",
            "SO_REUSEPORT is not available on this platform".into(),
        )))
    }
}

#[cfg(unix)]
mod unix {
    use super::*;
    use std::net::{IpAddr, SocketAddr};

    pub fn listen(host: &str, port: u32, backlog: u32) -> Result<ListeningSocket> {
        let ip: IpAddr = host.trim_matches(|c| c == '[' || c == ']').parse().map_err(|_| {
            to_napi(ledger_core::Error::new(
                Code::ListenFailed,
                "",
                format!("{host}: not an IP address"),
            ))
        })?;
        let port = u16::try_from(port).map_err(|_| {
            to_napi(ledger_core::Error::new(
                Code::ListenFailed,
                "",
                format!("port {port} out of range"),
            ))
        })?;
        let address = SocketAddr::new(ip, port);
        // SAFETY: plain socket calls on a descriptor this function owns until it returns it;
        // every failure path closes it.
        unsafe {
            let family = if ip.is_ipv4() { libc::AF_INET } else { libc::AF_INET6 };
            let fd = libc::socket(family, libc::SOCK_STREAM, 0);
            if fd < 0 {
                return Err(failure("socket"));
            }
            let fail = |what: &str| {
                let e = failure(what);
                libc::close(fd);
                e
            };
            if libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) != 0 {
                return Err(fail("fcntl"));
            }
            let one: libc::c_int = 1;
            for option in [libc::SO_REUSEADDR, libc::SO_REUSEPORT] {
                if libc::setsockopt(
                    fd,
                    libc::SOL_SOCKET,
                    option,
                    &one as *const _ as *const libc::c_void,
                    std::mem::size_of_val(&one) as libc::socklen_t,
                ) != 0
                {
                    return Err(fail("setsockopt"));
                }
            }
            let mut storage: libc::sockaddr_storage = std::mem::zeroed();
            let length = match address {
                SocketAddr::V4(a) => {
                    let sin = &mut *(&mut storage as *mut _ as *mut libc::sockaddr_in);
                    sin.sin_family = libc::AF_INET as libc::sa_family_t;
                    sin.sin_port = a.port().to_be();
                    sin.sin_addr = libc::in_addr { s_addr: u32::from_ne_bytes(a.ip().octets()) };
                    std::mem::size_of::<libc::sockaddr_in>()
                }
                SocketAddr::V6(a) => {
                    // Only IPv6 on an IPv6 socket, as Node binds `::` when told so explicitly.
                    let sin6 = &mut *(&mut storage as *mut _ as *mut libc::sockaddr_in6);
                    sin6.sin6_family = libc::AF_INET6 as libc::sa_family_t;
                    sin6.sin6_port = a.port().to_be();
                    sin6.sin6_addr = libc::in6_addr { s6_addr: a.ip().octets() };
                    sin6.sin6_scope_id = a.scope_id();
                    std::mem::size_of::<libc::sockaddr_in6>()
                }
            };
            if libc::bind(
                fd,
                &storage as *const _ as *const libc::sockaddr,
                length as libc::socklen_t,
            ) != 0
            {
                return Err(fail("bind"));
            }
            if libc::listen(fd, backlog.min(i32::MAX as u32) as libc::c_int) != 0 {
                return Err(fail("listen"));
            }
            let mut bound: libc::sockaddr_storage = std::mem::zeroed();
            let mut bound_length = std::mem::size_of_val(&bound) as libc::socklen_t;
            if libc::getsockname(fd, &mut bound as *mut _ as *mut libc::sockaddr, &mut bound_length)
                != 0
            {
                return Err(fail("getsockname"));
            }
            let bound_port = if family == libc::AF_INET {
                u16::from_be((*(&bound as *const _ as *const libc::sockaddr_in)).sin_port)
            } else {
                u16::from_be((*(&bound as *const _ as *const libc::sockaddr_in6)).sin6_port)
            };
            Ok(ListeningSocket { fd, port: bound_port as u32 })
        }
    }
}
