//! Bounds on what clients hold open (connections, update streams): in all, and per client
//! address, so that one client cannot take every place.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Why a place was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The server holds its maximum.
    Server,
    /// This client address holds its maximum.
    Client,
}

#[derive(Default)]
struct Counts {
    total: usize,
    per_client: HashMap<IpAddr, usize>,
}

/// Places handed out, against a total and a per-address bound.
#[derive(Clone)]
pub struct Counter {
    counts: Arc<Mutex<Counts>>,
    max: usize,
    max_per_client: usize,
}

/// A place held; given back when dropped.
pub struct Permit {
    counts: Arc<Mutex<Counts>>,
    client: Option<IpAddr>,
}

impl Counter {
    pub fn new(max: usize, max_per_client: usize) -> Counter {
        Counter { counts: Arc::default(), max, max_per_client }
    }

    /// A place for `client` (`None`: a request that came without a connection, in
    /// process: only the total bounds it).
    pub fn admit(&self, client: Option<IpAddr>) -> Result<Permit, Refused> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(ip) = client
            && counts.per_client.get(&ip).copied().unwrap_or(0) >= self.max_per_client
        {
            return Err(Refused::Client);
        }
        if counts.total >= self.max {
            return Err(Refused::Server);
        }
        counts.total += 1;
        if let Some(ip) = client {
            *counts.per_client.entry(ip).or_insert(0) += 1;
        }
        Ok(Permit { counts: self.counts.clone(), client })
    }

    /// Places held now.
    pub fn held(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).total
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.total -= 1;
        if let Some(ip) = self.client
            && let Some(n) = counts.per_client.get_mut(&ip)
        {
            *n -= 1;
            if *n == 0 {
                counts.per_client.remove(&ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_in_all_and_per_client() {
        let c = Counter::new(3, 2);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let a1 = c.admit(Some(a)).unwrap();
        let _a2 = c.admit(Some(a)).unwrap();
        assert_eq!(c.admit(Some(a)).err(), Some(Refused::Client));
        let _b1 = c.admit(Some(b)).unwrap();
        assert_eq!(c.admit(Some(b)).err(), Some(Refused::Server));
        assert_eq!(c.admit(None).err(), Some(Refused::Server));
        drop(a1);
        assert_eq!(c.held(), 2);
        let _again = c.admit(Some(a)).unwrap();
    }
}
