// Starts `tgdlc lsp` for .tgdl files. Everything else (diagnostics, hover, completion,
// definitions, references, rename, outline, formatting) comes from the server.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("tgdl").get("server.path") || "tgdlc";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "tgdl",
    "TGDL language server",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "tgdl" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
