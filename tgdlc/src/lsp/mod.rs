//! `tgdlc lsp`: a language server over standard input and output (lsp-server, the
//! scaffold rust-analyzer uses). Full-text sync; every change re-checks the document and
//! its imports and publishes the checker's diagnostics; hover, definition, references,
//! completion, outline, formatting (through `fmt`) and rename answer from the analysis;
//! a code lens runs the game's scenarios on the interpreter (`scenarios`).
//!
//! A request never brings the server down: the handlers are total over half-typed code,
//! a panic in one (a bug) becomes an error response to that request only, and a frame or
//! message that breaks the protocol is answered and skipped (`transport`).

// `lsp_types::Uri` keys maps as the protocol's own types do: clippy sees interior
// mutability in fluent-uri's parsed form, but hashing and equality use the text only.
#![allow(clippy::mutable_key_type)]

mod analysis;
mod convert;
mod features;
mod scenarios;
pub mod transport;

use analysis::Analysis;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CodeLensOptions, CompletionOptions, Diagnostic as LspDiagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, ExecuteCommandOptions, HoverProviderCapability, MessageType, NumberOrString, OneOf,
    PublishDiagnosticsParams, ServerCapabilities, ShowMessageParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};
use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

type Error = Box<dyn std::error::Error + Send + Sync>;

/// Serves the protocol on standard input and output until the client exits. Requests are
/// answered on the compiler's stack, as `tgdlc check` runs: the features walk the same
/// trees the checker does, and a program `check` accepts must not end the server.
pub fn run_stdio() -> Result<(), Error> {
    let (connection, threads) = transport::stdio();
    tgdl_compiler::on_compiler_stack(|| serve(&connection))?;
    drop(connection);
    threads.join()?;
    Ok(())
}

/// What the server offers.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![scenarios::RUN.into()],
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// Runs the initialisation handshake, then answers messages until `shutdown`/`exit`.
pub fn serve(connection: &Connection) -> Result<(), Error> {
    connection.initialize(serde_json::to_value(capabilities())?)?;
    let mut server = Server::default();
    for message in &connection.receiver {
        match message {
            Message::Request(req) => {
                if connection.handle_shutdown(&req)? {
                    return Ok(());
                }
                let id = req.id.clone();
                let (response, notifications) = catch_unwind(AssertUnwindSafe(|| server.request(req)))
                    .unwrap_or_else(|_| {
                        let error = Response::new_err(
                            id,
                            ErrorCode::InternalError as i32,
                            "tgdlc lsp: internal error (a bug)".into(),
                        );
                        (error, Vec::new())
                    });
                connection.sender.send(response.into())?;
                for n in notifications {
                    connection.sender.send(n.into())?;
                }
            }
            Message::Notification(n) => {
                let out = catch_unwind(AssertUnwindSafe(|| server.notification(n))).unwrap_or_default();
                for n in out {
                    connection.sender.send(n.into())?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// An open document.
pub(crate) struct Document {
    pub uri: Uri,
    pub text: String,
    pub analysis: Analysis,
    /// The last analysis that had a program, for answers while the text does not parse.
    pub good: Option<Analysis>,
    /// Files other than the document that we published diagnostics for.
    published: HashSet<Uri>,
}

impl Document {
    /// The current analysis if it has a program, else the last one that had.
    pub fn usable(&self) -> &Analysis {
        match &self.good {
            Some(good) if self.analysis.program.is_none() => good,
            _ => &self.analysis,
        }
    }
}

pub(crate) fn uri_path(uri: &Uri) -> Option<PathBuf> {
    convert::uri_to_path(uri)
}

#[derive(Default)]
struct Server {
    docs: HashMap<Uri, Document>,
}

impl Server {
    /// Answers a request; a command may also publish notifications (diagnostics and a
    /// message), sent after the answer.
    fn request(&mut self, req: Request) -> (Response, Vec<Notification>) {
        let id = req.id.clone();
        let mut notifications = Vec::new();
        let result = if req.method == "workspace/executeCommand" {
            self.execute(req.params, &mut notifications)
        } else {
            self.answer(&req.method, req.params)
        };
        let response = match result {
            Ok(value) => Response { id, result: Some(value), error: None },
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        (response, notifications)
    }

    /// `workspace/executeCommand`: `tgdl.runScenarios URI` runs the scenarios of the game
    /// URI names (the game's text as open in the editor, else on disk), publishes their
    /// failures as the scenario file's diagnostics, tells the outcome in a message and
    /// answers with the report (`tgdlc test --json`'s shape).
    fn execute(
        &self,
        params: serde_json::Value,
        out: &mut Vec<Notification>,
    ) -> Result<serde_json::Value, (ErrorCode, String)> {
        let p: lsp_types::ExecuteCommandParams =
            serde_json::from_value(params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))?;
        if p.command != scenarios::RUN {
            return Err((ErrorCode::InvalidParams, format!("tgdlc lsp has no command `{}`", p.command)));
        }
        let game = p
            .arguments
            .first()
            .and_then(|a| a.as_str())
            .and_then(|a| a.parse::<Uri>().ok())
            .and_then(|uri| scenarios::game_of_uri(&uri))
            .ok_or_else(|| {
                (ErrorCode::InvalidParams, format!("{} takes the URI of a game file", scenarios::RUN))
            })?;
        let open = self.docs.values().find(|d| uri_path(&d.uri).as_deref() == Some(game.as_path()));
        let text = match open {
            Some(doc) => doc.text.clone(),
            None => std::fs::read_to_string(&game)
                .map_err(|e| (ErrorCode::InvalidParams, format!("cannot read {}: {e}", game.display())))?,
        };
        let ran = scenarios::run(&game, &text).map_err(|m| (ErrorCode::InvalidRequest, m))?;
        let (passed, failed) = (ran.report.passed(), ran.report.failed());
        let name = ran.scenarios.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let (typ, message) = if ran.report.ok() {
            (MessageType::INFO, format!("{name}: {passed} scenarios passed"))
        } else {
            (MessageType::ERROR, format!("{name}: {failed} failed, {passed} passed (see its problems)"))
        };
        if let Some(uri) = convert::path_to_uri(&ran.scenarios) {
            out.push(publish(uri, ran.diagnostics));
        }
        out.push(Notification::new("window/showMessage".into(), ShowMessageParams { typ, message }));
        Ok(ran.report.to_json())
    }

    fn answer(
        &self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, (ErrorCode, String)> {
        use lsp_types::*;
        let bad = |e: serde_json::Error| (ErrorCode::InvalidParams, e.to_string());
        let json = |v: serde_json::Result<serde_json::Value>| {
            v.map_err(|e| (ErrorCode::InternalError, e.to_string()))
        };
        let get = |uri: &Uri| self.docs.get(uri);
        match method {
            "textDocument/hover" => {
                let p: HoverParams = serde_json::from_value(params).map_err(bad)?;
                let tp = p.text_document_position_params;
                json(serde_json::to_value(
                    get(&tp.text_document.uri).and_then(|d| features::hover(d, tp.position)),
                ))
            }
            "textDocument/definition" => {
                let p: GotoDefinitionParams = serde_json::from_value(params).map_err(bad)?;
                let tp = p.text_document_position_params;
                let found = get(&tp.text_document.uri).and_then(|d| features::definition(d, tp.position));
                json(serde_json::to_value(found.map(GotoDefinitionResponse::Scalar)))
            }
            "textDocument/references" => {
                let p: ReferenceParams = serde_json::from_value(params).map_err(bad)?;
                let tp = p.text_document_position;
                let found = get(&tp.text_document.uri)
                    .map(|d| features::references(d, tp.position, p.context.include_declaration));
                json(serde_json::to_value(found))
            }
            "textDocument/completion" => {
                let p: CompletionParams = serde_json::from_value(params).map_err(bad)?;
                let tp = p.text_document_position;
                let items = get(&tp.text_document.uri).map(|d| features::completion(d, tp.position));
                json(serde_json::to_value(items.map(CompletionResponse::Array)))
            }
            "textDocument/documentSymbol" => {
                let p: DocumentSymbolParams = serde_json::from_value(params).map_err(bad)?;
                let symbols = get(&p.text_document.uri).map(features::symbols);
                json(serde_json::to_value(symbols.map(DocumentSymbolResponse::Nested)))
            }
            "textDocument/formatting" => {
                let p: DocumentFormattingParams = serde_json::from_value(params).map_err(bad)?;
                json(serde_json::to_value(get(&p.text_document.uri).and_then(features::formatting)))
            }
            "textDocument/codeLens" => {
                let p: CodeLensParams = serde_json::from_value(params).map_err(bad)?;
                json(serde_json::to_value(get(&p.text_document.uri).map(scenarios::lenses)))
            }
            "textDocument/rename" => {
                let p: RenameParams = serde_json::from_value(params).map_err(bad)?;
                let tp = p.text_document_position;
                let Some(d) = get(&tp.text_document.uri) else {
                    return Err((ErrorCode::InvalidParams, "the document is not open".into()));
                };
                let edit = features::rename(d, tp.position, &p.new_name)
                    .map_err(|m| (ErrorCode::InvalidRequest, m))?;
                json(serde_json::to_value(edit))
            }
            _ => Err((ErrorCode::MethodNotFound, format!("tgdlc lsp does not handle `{method}`"))),
        }
    }

    /// Handles a notification; returns the notifications to send (diagnostics).
    fn notification(&mut self, n: Notification) -> Vec<Notification> {
        use lsp_types::*;
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                self.update(p.text_document.uri, p.text_document.text)
            }
            "textDocument/didChange" => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                // Full sync: the last change holds the whole text.
                match p.content_changes.into_iter().last() {
                    Some(change) => self.update(p.text_document.uri, change.text),
                    None => Vec::new(),
                }
            }
            "textDocument/didSave" => {
                // Other open documents may import the saved file: check them again.
                let open: Vec<(Uri, String)> =
                    self.docs.values().map(|d| (d.uri.clone(), d.text.clone())).collect();
                open.into_iter().flat_map(|(uri, text)| self.update(uri, text)).collect()
            }
            "textDocument/didClose" => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                let Some(doc) = self.docs.remove(&p.text_document.uri) else { return Vec::new() };
                std::iter::once(doc.uri).chain(doc.published).map(|uri| publish(uri, Vec::new())).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Re-analyses a document and gives the diagnostics to publish.
    fn update(&mut self, uri: Uri, text: String) -> Vec<Notification> {
        let path = uri_path(&uri);
        let analysis = analysis::analyse(path.as_deref(), &text);
        let previous = self.docs.remove(&uri);
        let (good, old_published) = match previous {
            Some(d) => {
                let good = if d.analysis.program.is_some() { Some(d.analysis) } else { d.good };
                (good, d.published)
            }
            None => (None, HashSet::new()),
        };
        let mut by_uri: HashMap<Uri, Vec<LspDiagnostic>> = HashMap::new();
        by_uri.insert(uri.clone(), Vec::new());
        for d in &analysis.diagnostics {
            let Some(loc) = features::location(&uri, &analysis, d.primary.span) else { continue };
            by_uri.entry(loc.uri.clone()).or_default().push(to_lsp(&uri, &analysis, d, loc.range));
        }
        let published: HashSet<Uri> = by_uri.keys().filter(|u| **u != uri).cloned().collect();
        let mut out: Vec<Notification> =
            old_published.difference(&published).map(|u| publish(u.clone(), Vec::new())).collect();
        out.extend(by_uri.into_iter().map(|(u, ds)| publish(u, ds)));
        self.docs.insert(uri.clone(), Document { uri, text, analysis, good, published });
        out
    }
}

fn publish(uri: Uri, diagnostics: Vec<LspDiagnostic>) -> Notification {
    Notification::new(
        "textDocument/publishDiagnostics".into(),
        PublishDiagnosticsParams { uri, diagnostics, version: None },
    )
}

/// A checker diagnostic for the protocol: message, label and help lines together,
/// secondary labels as related information.
fn to_lsp(
    doc_uri: &Uri,
    a: &Analysis,
    d: &tgdl_compiler::diagnostics::Diagnostic,
    range: lsp_types::Range,
) -> LspDiagnostic {
    let mut message = d.message.clone();
    if !d.primary.message.is_empty() {
        message.push_str(&format!(": {}", d.primary.message));
    }
    for h in &d.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    for n in &d.notes {
        message.push_str(&format!("\nnote: {n}"));
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .filter_map(|l| {
            let location = features::location(doc_uri, a, l.span)?;
            Some(DiagnosticRelatedInformation { location, message: l.message.clone() })
        })
        .collect();
    LspDiagnostic {
        range,
        severity: Some(if d.is_error() { DiagnosticSeverity::ERROR } else { DiagnosticSeverity::WARNING }),
        code: d.code.map(|c| NumberOrString::String(c.to_owned())),
        source: Some("tgdlc".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..LspDiagnostic::default()
    }
}
