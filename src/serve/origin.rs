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

use std::net::IpAddr;

/// The names a server listening on one address answers to.
#[derive(Clone, Copy, Debug)]
pub struct AllowedHosts {
    listen: IpAddr,
}

impl AllowedHosts {
    pub fn new(listen: IpAddr) -> AllowedHosts {
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
            Ok(ip) => ip.is_loopback() || self.listen.is_unspecified() || ip == self.listen,
            Err(_) => false,
        }
    }

    /// Whether an `Origin` header value (`http://host:port`) is a page of this server.
    pub fn origin(&self, value: &str) -> bool {
        value
            .strip_prefix("http://")
            .or_else(|| value.strip_prefix("https://"))
            .is_some_and(|rest| !rest.contains('/') && self.host(rest))
    }
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
        AllowedHosts::new("127.0.0.1".parse().unwrap())
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
        let one = AllowedHosts::new("192.168.1.5".parse().unwrap());
        assert!(one.host("192.168.1.5:8080"));
        assert!(one.host("localhost:8080"));
        assert!(!one.host("192.168.1.6:8080"));
        let all = AllowedHosts::new("0.0.0.0".parse().unwrap());
        assert!(all.host("192.168.1.6:8080"));
        assert!(all.host("[fe80::1]:8080"));
        assert!(!all.host("evil.example:8080"));
    }

    #[test]
    fn origins_name_an_allowed_host() {
        let a = loopback();
        assert!(a.origin("http://127.0.0.1:8080"));
        assert!(a.origin("http://localhost:8080"));
        assert!(a.origin("https://localhost"));
        for bad in [
            "http://evil.example:8080",
            "http://evil.example",
            "null",
            "127.0.0.1:8080",
            "ftp://127.0.0.1",
            "http://127.0.0.1:8080/path",
        ] {
            assert!(!a.origin(bad), "{bad}");
        }
    }
}
