-- A headless Neovim session for tgdlc/tests/neovim.rs: loads editors/neovim/tgdl.lua (the
-- configuration users copy), opens each file of the spec with `tgdlc lsp` attached, waits
-- for the diagnostics the server publishes, asks for hovers, and writes what Neovim
-- received as JSON. Runs on Neovim 0.7 (Debian 12) and later.
--
-- The spec (JSON in $TGDL_NVIM_SPEC): { config, tgdlc, out, timeout_ms,
--   files = { { path, hovers = { { line, character }, ... } }, ... } }.

local spec = vim.fn.json_decode(os.getenv("TGDL_NVIM_SPEC"))
local v = vim.version()
local report = { nvim = v.major .. "." .. v.minor .. "." .. v.patch, files = {} }

-- Every publishDiagnostics, by URI, as the server sent it (then handled as usual).
local published = {}
local default_handler = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  if result then
    published[result.uri] = result.diagnostics
  end
  return default_handler(err, result, ctx, config)
end

local function client_names(buf)
  local list
  if vim.lsp.get_clients then
    list = vim.lsp.get_clients({ bufnr = buf })
  else
    list = vim.lsp.buf_get_clients(buf)
  end
  local names = {}
  for _, c in pairs(list) do
    table.insert(names, c.name)
  end
  return names
end

local function run()
  vim.g.tgdlc_path = spec.tgdlc
  dofile(spec.config)
  for _, f in ipairs(spec.files) do
    vim.cmd("edit " .. vim.fn.fnameescape(f.path))
    local buf = vim.api.nvim_get_current_buf()
    local uri = vim.uri_from_bufnr(buf)
    local entry = { path = f.path, filetype = vim.bo[buf].filetype, hovers = {}, diagnostics = {} }
    table.insert(report.files, entry)
    entry.published = vim.wait(spec.timeout_ms, function()
      return published[uri] ~= nil
    end, 20)
    entry.clients = client_names(buf)
    for _, d in ipairs(published[uri] or {}) do
      table.insert(entry.diagnostics, {
        code = d.code,
        message = d.message,
        line = d.range.start.line,
        severity = d.severity,
      })
    end
    -- What vim.diagnostic shows in the buffer (the signs and virtual text).
    entry.shown = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      table.insert(entry.shown, { code = d.code, line = d.lnum })
    end
    for _, h in ipairs(f.hovers) do
      local params = { textDocument = { uri = uri }, position = { line = h.line, character = h.character } }
      local results = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, spec.timeout_ms)
      local text = vim.NIL
      for _, r in pairs(results or {}) do
        if r.result and r.result.contents then
          text = r.result.contents.value
        end
      end
      table.insert(entry.hovers, text)
    end
  end
end

local ok, err = pcall(run)
if not ok then
  report.error = tostring(err)
end
local out = io.open(spec.out, "w")
out:write(vim.fn.json_encode(report))
out:close()
vim.cmd("qa!")
