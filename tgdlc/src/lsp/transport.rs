//! The protocol's framing on standard input and output (`Content-Length` headers, then a
//! JSON body), read with bounds: a header line, the number of headers and a body each
//! have a maximum, so no frame makes the server allocate what the client claims. A frame
//! that breaks the rules is answered (an error response when its request id can be read,
//! otherwise an error message shown to the user) and skipped; the server goes on with the
//! next frame and ends only at the end of input or after `exit`.

use lsp_server::{Connection, ErrorCode, Message, Notification, RequestId, Response};
use std::io::{self, BufRead, Read, Write};
use std::thread::JoinHandle;

/// The largest body accepted: a document of several megabytes, escaped as JSON, fits.
pub const MAX_BODY: usize = 64 << 20;
/// The longest header line (`Content-Length: ...` and `Content-Type: ...` are short).
const MAX_HEADER_LINE: usize = 1024;
/// The most header lines in one frame.
const MAX_HEADERS: usize = 16;

/// What reading one frame gave.
#[derive(Debug)]
pub enum Frame {
    /// A body, as text.
    Body(String),
    /// A frame that broke the rules, already skipped: why.
    Malformed(String),
    /// The end of input.
    End,
}

/// Reads the next frame of `input`. Errors are only those of the input itself.
pub fn read_frame(input: &mut impl BufRead) -> io::Result<Frame> {
    let mut length: Option<Result<usize, String>> = None;
    let mut problem: Option<String> = None;
    let mut headers = 0;
    loop {
        let line = match read_line(input)? {
            Line::End if headers == 0 && length.is_none() => return Ok(Frame::End),
            Line::End => return Ok(Frame::Malformed("the input ended inside a frame's headers".into())),
            Line::TooLong => {
                problem.get_or_insert_with(|| format!("a header line longer than {MAX_HEADER_LINE} bytes"));
                headers += 1;
                continue;
            }
            Line::Text(line) => line,
        };
        if line.is_empty() {
            if headers == 0 {
                // Blank lines between frames: tolerated.
                continue;
            }
            break;
        }
        headers += 1;
        if headers > MAX_HEADERS {
            problem.get_or_insert_with(|| format!("more than {MAX_HEADERS} header lines"));
            continue;
        }
        match line.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("Content-Length") => {
                length = Some(
                    value.trim().parse::<usize>().map_err(|_| format!("`Content-Length: {}`", value.trim())),
                );
            }
            Some(_) => {}
            None => {
                problem.get_or_insert_with(|| format!("a header line without `:`: {:?}", shorten(&line)));
            }
        }
    }
    let length = match length {
        None => {
            return Ok(Frame::Malformed(
                problem.unwrap_or_else(|| "a frame without `Content-Length`".into()),
            ));
        }
        Some(Err(bad)) => {
            return Ok(Frame::Malformed(format!("a frame whose length is not a number: {bad}")));
        }
        Some(Ok(n)) => n,
    };
    if length > MAX_BODY {
        // Skipped as it arrives, never held: the length may be a lie, up to the end of input.
        io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        return Ok(Frame::Malformed(format!("a message of {length} bytes (at most {MAX_BODY} are read)")));
    }
    let mut body = Vec::new();
    input.by_ref().take(length as u64).read_to_end(&mut body)?;
    if body.len() < length {
        return Ok(Frame::Malformed(format!(
            "the input ended {} bytes into a {length}-byte message",
            body.len()
        )));
    }
    if let Some(problem) = problem {
        return Ok(Frame::Malformed(problem));
    }
    match String::from_utf8(body) {
        Ok(text) => Ok(Frame::Body(text)),
        Err(_) => Ok(Frame::Malformed("a message that is not UTF-8".into())),
    }
}

enum Line {
    Text(String),
    TooLong,
    End,
}

/// One header line without its line ending, read at most [`MAX_HEADER_LINE`] bytes at a
/// time (a longer one is consumed to its end and reported).
fn read_line(input: &mut impl BufRead) -> io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(if line.is_empty() && !too_long { Line::End } else { Line::TooLong });
        }
        let (taken, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        if !too_long {
            line.extend_from_slice(&available[..taken]);
            if line.len() > MAX_HEADER_LINE + 2 {
                too_long = true;
                line.clear();
            }
        }
        input.consume(taken);
        if done {
            break;
        }
    }
    if too_long {
        return Ok(Line::TooLong);
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(Line::Text(String::from_utf8_lossy(&line).into_owned()))
}

fn shorten(text: &str) -> String {
    text.chars().take(60).collect()
}

/// What a body holds: a message, or what to answer instead.
pub fn decode(body: &str) -> Result<Message, Message> {
    let value: serde_json::Value = match serde_json::from_str(body) {
        Ok(value) => value,
        Err(e) => return Err(show_error(&format!("a message that is not JSON ({e})"))),
    };
    let id = value.get("id").and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    // Told apart by their fields, as JSON-RPC does: a request has a method and an id, a
    // notification a method only, a response an id only.
    let parsed = match (value.get("method").is_some(), value.get("id").is_some()) {
        (true, true) => serde_json::from_value(value).map(Message::Request),
        (true, false) => serde_json::from_value(value).map(Message::Notification),
        (false, true) => serde_json::from_value(value).map(Message::Response),
        (false, false) => {
            return Err(show_error("a message with neither a method nor an id"));
        }
    };
    parsed.map_err(|e| match id {
        Some(id) => Message::Response(Response::new_err(
            id,
            ErrorCode::InvalidRequest as i32,
            format!("tgdlc lsp: not a request it can read: {e}"),
        )),
        None => show_error(&format!("a message it cannot read ({e})")),
    })
}

/// An error shown to the user, for input that cannot be answered by id.
pub fn show_error(what: &str) -> Message {
    let params = lsp_types::ShowMessageParams {
        typ: lsp_types::MessageType::ERROR,
        message: format!("tgdlc lsp ignored {what}"),
    };
    Message::Notification(Notification::new("window/showMessage".into(), params))
}

/// The threads that read and write standard input and output.
pub struct IoThreads {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl IoThreads {
    pub fn join(self) -> io::Result<()> {
        // The reader may be blocked on input after the server has finished; it ends with
        // the process.
        drop(self.reader);
        self.writer.join().map_err(|_| io::Error::other("the writer thread panicked"))?
    }
}

/// A connection over standard input and output.
pub fn stdio() -> (Connection, IoThreads) {
    let (to_writer, from_server) = crossbeam_channel::unbounded::<Message>();
    let (to_server, from_reader) = crossbeam_channel::bounded::<Message>(0);
    let answers = to_writer.clone();
    let writer = std::thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            for message in from_server {
                message.write(&mut out)?;
                out.flush()?;
            }
            Ok(())
        })
        .expect("a thread can be started");
    let reader = std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            loop {
                let message = match read_frame(&mut input)? {
                    Frame::End => return Ok(()),
                    Frame::Malformed(why) => Err(show_error(&why)),
                    Frame::Body(body) => decode(&body),
                };
                match message {
                    Ok(message) => {
                        let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                        if to_server.send(message).is_err() || exit {
                            return Ok(());
                        }
                    }
                    Err(answer) => {
                        eprintln!("tgdlc lsp: {}", describe(&answer));
                        if answers.send(answer).is_err() {
                            return Ok(());
                        }
                    }
                }
            }
        })
        .expect("a thread can be started");
    (Connection { sender: to_writer, receiver: from_reader }, IoThreads { reader, writer })
}

fn describe(answer: &Message) -> String {
    match answer {
        Message::Response(r) => r.error.as_ref().map_or_else(String::new, |e| e.message.clone()),
        Message::Notification(n) => n.params["message"].as_str().unwrap_or_default().to_owned(),
        Message::Request(r) => r.method.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let mut input = io::BufReader::new(input);
        let mut out = Vec::new();
        loop {
            match read_frame(&mut input).unwrap() {
                Frame::End => return out,
                Frame::Body(b) => out.push(format!("body {b}")),
                Frame::Malformed(why) => out.push(format!("malformed {why}")),
            }
        }
    }

    #[test]
    fn frames_are_read_in_turn() {
        let got = frames(b"Content-Length: 2\r\n\r\n{}Content-Length: 4\r\nContent-Type: x\r\n\r\nnull");
        assert_eq!(got, ["body {}", "body null"]);
    }

    #[test]
    fn a_huge_length_is_skipped_not_allocated() {
        let got = frames(b"Content-Length: 100000000000\r\n\r\n{\"jsonrpc\":\"2.0\"}");
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with("malformed a message of 100000000000 bytes"), "{got:?}");
    }

    #[test]
    fn broken_headers_are_reported_and_the_next_frame_read() {
        let long = format!("X-Long: {}\r\n", "a".repeat(5000));
        let input = format!(
            "garbage\r\n\r\nContent-Length: ten\r\n\r\n{long}Content-Length: 2\r\n\r\n{{}}Content-Length: 2\r\n\r\n[]"
        );
        let got = frames(input.as_bytes());
        assert!(got[0].contains("without `:`"), "{got:?}");
        assert!(got[1].contains("not a number"), "{got:?}");
        assert!(got[2].contains("header line longer"), "{got:?}");
        assert_eq!(got[3], "body []");
        assert_eq!(got.len(), 4, "{got:?}");
    }

    #[test]
    fn a_frame_cut_short_is_reported() {
        assert!(frames(b"Content-Length: 10\r\n\r\n{}")[0].contains("ended 2 bytes into"));
        assert!(frames(b"Content-Length: 10\r\n")[0].contains("inside a frame's headers"));
    }

    #[test]
    fn bodies_that_are_not_messages_get_answers() {
        let not_json = decode("{").unwrap_err();
        assert!(matches!(&not_json, Message::Notification(n) if n.method == "window/showMessage"));
        let Message::Response(r) = decode(r#"{"jsonrpc":"2.0","id":7,"method":5}"#).unwrap_err() else {
            panic!("a response to request 7")
        };
        assert_eq!(r.id, RequestId::from(7));
        assert!(decode("[1, 2]").is_err());
        assert!(decode(r#"{"jsonrpc":"2.0","method":"exit"}"#).is_ok());
    }
}
