//! Which names the board answers to: the `Host` of every request and the `Origin` of a
//! WebSocket must name this server as it listens, never a site's own name.
//!
//! A page on another site cannot open a WebSocket here with its own `Origin` (the browser
//! sets it). But DNS rebinding makes a site's name point at 127.0.0.1: the browser then
//! sends `Host: evil.example` and `Origin: http://evil.example`, which agree with each
//! other. So both are checked against the names the server listens as: `localhost` and the
//! loopback addresses, the `--host` address, and any IP address when it listens on all of
//! them (0.0.0.0 or ::). An IP address cannot be rebound; a name other than `localhost` is
//! refused.
//!
//! An `Origin` is held to more: it is a page, and a page of this server has this server's
//! scheme (`http`), its port, and a name that reaches this socket (`localhost`, the
//! listening address, or any IP address when it listens on all of them). A page served by
//! another program on this machine (`http://localhost:3000`, `http://127.0.0.2:8080` while
//! the server listens on 127.0.0.1) is another site, and its WebSockets are refused: else
//! any local page could take every board.

use std::net::{IpAddr, SocketAddr};

/// The names a server listening on one address answers to.
#[derive(Clone, Copy, Debug)]
pub struct AllowedHosts {
    listen: SocketAddr,
}

impl AllowedHosts {
    pub fn new(listen: SocketAddr) -> AllowedHosts {
        AllowedHosts { listen }
    }

    /// Whether a `Host` header value (`name`, `name:port`, `[v6]:port`) names this server.
    pub fn host(&self, value: &str) -> bool {
        let Some(name) = host_name(value) else {
            return false;
        };
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        match name.parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || self.listens_on(ip),
            Err(_) => false,
        }
    }

    /// Whether a connection to `ip` reaches this socket.
    fn listens_on(&self, ip: IpAddr) -> bool {
        let listen = self.listen.ip();
        listen.is_unspecified() || ip == listen
    }

    /// Whether an `Origin` header value (`http://host:port`) is a page of this server: its
    /// scheme, its port (80 where the origin names none), and a name that reaches it.
    pub fn origin(&self, value: &str) -> bool {
        let Some(rest) = value.strip_prefix("http://") else {
            return false;
        };
        let Some(name) = host_name(rest) else {
            return false;
        };
        if port_of(rest).unwrap_or(80) != self.listen.port() {
            return false;
        }
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        name.parse::<IpAddr>().is_ok_and(|ip| self.listens_on(ip))
    }
}

/// The port of a well-formed `name:port` or `[v6]:port` (checked by `host_name`), if given.
fn port_of(value: &str) -> Option<u16> {
    let after_name = match value.strip_prefix('[') {
        Some(rest) => rest.split_once(']')?.1,
        None => value,
    };
    after_name.rsplit_once(':')?.1.parse().ok()
}

/// The name part of `name`, `name:port` or `[v6]` / `[v6]:port`; `None` if malformed.
fn host_name(value: &str) -> Option<&str> {
    if let Some(rest) = value.strip_prefix('[') {
        let (v6, after) = rest.split_once(']')?;
        return (after.is_empty() || valid_port(after.strip_prefix(':')?)).then_some(v6);
    }
    let (name, port) = match value.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (value, None),
    };
    if name.is_empty() || name.contains(':') || !port.is_none_or(valid_port) {
        return None;
    }
    Some(name)
}

fn valid_port(port: &str) -> bool {
    port.parse::<u16>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> AllowedHosts {
        AllowedHosts::new("127.0.0.1:8080".parse().unwrap())
    }

    #[test]
    fn loopback_names_are_allowed_and_other_names_refused() {
        let a = loopback();
        for ok in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "localhost:8080",
            "LocalHost",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(a.host(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "evil.example",
            "localhost.evil.example:8080",
            "192.168.1.5:8080",
            "",
            ":8080",
            "127.0.0.1:99999",
            "127.0.0.1:80:80",
            "[::1",
            "[::1]x",
        ] {
            assert!(!a.host(bad), "{bad}");
        }
    }

    #[test]
    fn the_listening_address_and_any_address_on_0_0_0_0() {
        let one = AllowedHosts::new("192.168.1.5:8080".parse().unwrap());
        assert!(one.host("192.168.1.5:8080"));
        assert!(one.host("localhost:8080"));
        assert!(!one.host("192.168.1.6:8080"));
        let all = AllowedHosts::new("0.0.0.0:8080".parse().unwrap());
        assert!(all.host("192.168.1.6:8080"));
        assert!(all.host("[fe80::1]:8080"));
        assert!(!all.host("evil.example:8080"));
    }

    #[test]
    fn origins_name_this_server_its_scheme_and_its_port() {
        let a = loopback();
        assert!(a.origin("http://127.0.0.1:8080"));
        assert!(a.origin("http://localhost:8080"));
        assert!(a.origin("http://LOCALHOST:8080"));
        for bad in [
            "http://evil.example:8080",
            "http://evil.example",
            "null",
            "127.0.0.1:8080",
            "ftp://127.0.0.1",
            "http://127.0.0.1:8080/path",
            // Issue 66, item 8: pages of other programs on this machine.
            "http://localhost:3000",
            "http://127.0.0.1:9999",
            "http://127.0.0.2:8080",
            "http://[::1]:8080",
            "http://localhost",
            "https://localhost:8080",
            "http://127.0.0.1:08080x",
        ] {
            assert!(!a.origin(bad), "{bad}");
        }
        let web = AllowedHosts::new("127.0.0.1:80".parse().unwrap());
        assert!(web.origin("http://localhost"));
        assert!(web.origin("http://127.0.0.1:80"));
        assert!(!web.origin("http://localhost:8080"));
        let all = AllowedHosts::new("0.0.0.0:8080".parse().unwrap());
        assert!(all.origin("http://127.0.0.2:8080"));
        assert!(all.origin("http://192.168.1.6:8080"));
        assert!(!all.origin("http://192.168.1.6:3000"));
        assert!(!all.origin("http://evil.example:8080"));
        let v6 = AllowedHosts::new("[::1]:8080".parse().unwrap());
        assert!(v6.origin("http://[::1]:8080"));
        assert!(v6.origin("http://localhost:8080"));
        assert!(!v6.origin("http://127.0.0.1:8080"));
    }
}
