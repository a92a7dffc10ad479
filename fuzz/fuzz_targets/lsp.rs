//! The language server (`tgdlc lsp`, docs/editors.md) under arbitrary input: the bytes an
//! editor could send are read as the server reads standard input (frames, bounded, then
//! JSON), and the messages they hold are served in process. Every frame is either a
//! message or answered; every request gets exactly one answer; the server never ends
//! before it is told to, and never panics.
//!
//! `shutdown` and `exit` from the input are left out (the harness ends the session with
//! them), so that a session always reaches its end.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use std::collections::BTreeMap;
use std::time::Duration;
use tgdlc::lsp::transport::{Frame, decode, read_frame};

fuzz_target!(|data: &[u8]| {
    let mut input = std::io::Cursor::new(data);
    let mut messages = Vec::new();
    loop {
        match read_frame(&mut input).expect("reading memory cannot fail") {
            Frame::End => break,
            Frame::Malformed(why) => assert!(!why.is_empty()),
            Frame::Body(body) => match decode(&body) {
                Ok(m) => messages.push(m),
                Err(Message::Response(r)) => {
                    assert!(r.error.is_some(), "an answer to a broken request is an error")
                }
                Err(Message::Notification(n)) => assert_eq!(n.method, "window/showMessage"),
                Err(other) => panic!("an unexpected answer: {other:?}"),
            },
        }
    }
    let (server, client) = Connection::memory();
    let running = std::thread::spawn(move || tgdlc::lsp::serve(&server).map_err(|e| e.to_string()));
    let send = |m: Message| client.sender.send(m).expect("the server is listening");
    let init = serde_json::json!({ "capabilities": {} });
    send(Message::Request(Request::new(RequestId::from(-1), "initialize".into(), init)));
    send(Message::Notification(Notification::new("initialized".into(), serde_json::json!({}))));
    // Requests by id, counted: ids may repeat.
    let mut asked: BTreeMap<RequestId, usize> = BTreeMap::new();
    for m in messages {
        match &m {
            Message::Request(r) if r.method == "shutdown" || r.id == RequestId::from(-1) => continue,
            Message::Request(r) => *asked.entry(r.id.clone()).or_default() += 1,
            Message::Notification(n) if n.method == "exit" => continue,
            Message::Response(_) => continue,
            Message::Notification(_) => {}
        }
        send(m);
    }
    send(Message::Request(Request::new(RequestId::from(-2), "shutdown".into(), serde_json::Value::Null)));
    let mut answered: BTreeMap<RequestId, usize> = BTreeMap::new();
    loop {
        match client.receiver.recv_timeout(Duration::from_secs(60)).expect("every request is answered") {
            Message::Response(r) if r.id == RequestId::from(-2) => break,
            Message::Response(r) => *answered.entry(r.id).or_default() += 1,
            _ => {}
        }
    }
    answered.remove(&RequestId::from(-1));
    assert_eq!(asked, answered, "one answer per request");
    send(Message::Notification(Notification::new("exit".into(), serde_json::Value::Null)));
    running.join().expect("the server does not panic").expect("the server ends cleanly");
});
