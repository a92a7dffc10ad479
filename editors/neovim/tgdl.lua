-- TGDL in Neovim (0.7 or later, no plugin needed): put this file in
-- ~/.config/nvim/plugin/ (or `dofile` it from init.lua). It registers the .tgdl filetype
-- and starts `tgdlc lsp` for every TGDL buffer; diagnostics, hover (K), go to
-- definition, references, completion (<C-x><C-o>), rename and formatting
-- (vim.lsp.buf.format() from 0.8, vim.lsp.buf.formatting() on 0.7) then work as with any
-- language server. Set vim.g.tgdlc_path if `tgdlc` is not on the PATH.
--
-- Neovim 0.8 and later start the server with vim.lsp.start (one client per root, reused
-- by every buffer); 0.7 (Debian 12's package) with vim.lsp.start_client and
-- vim.lsp.buf_attach_client, one client per root kept here. The test
-- tgdlc/tests/neovim.rs loads this very file into a headless Neovim.

vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  pattern = "*.tgdl",
  command = "setfiletype tgdl",
})

-- The directory holding .git (or Cargo.toml) above the buffer's file, else its own.
local function root_of(buf)
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":p:h")
  local git = vim.fn.finddir(".git", dir .. ";")
  if git ~= "" then
    return vim.fn.fnamemodify(git, ":p:h:h")
  end
  local cargo = vim.fn.findfile("Cargo.toml", dir .. ";")
  if cargo ~= "" then
    return vim.fn.fnamemodify(cargo, ":p:h")
  end
  return dir
end

local function on_attach(_, buf)
  vim.bo[buf].omnifunc = "v:lua.vim.lsp.omnifunc"
  if vim.fn.has("nvim-0.10") == 0 then
    -- Neovim 0.10 maps K to the hover of a language server by itself.
    vim.keymap.set("n", "K", vim.lsp.buf.hover, { buffer = buf })
  end
end

-- Neovim 0.7: the client of each root, started once.
local clients = {}

vim.api.nvim_create_autocmd("FileType", {
  pattern = "tgdl",
  callback = function(args)
    vim.bo[args.buf].commentstring = "// %s"
    vim.bo[args.buf].shiftwidth = 4
    vim.bo[args.buf].expandtab = true
    local root = root_of(args.buf)
    local config = {
      name = "tgdlc",
      cmd = { vim.g.tgdlc_path or "tgdlc", "lsp" },
      root_dir = root,
      on_attach = on_attach,
    }
    if vim.lsp.start then
      vim.lsp.start(config)
      return
    end
    local id = clients[root]
    local client = id and vim.lsp.get_client_by_id(id)
    if not client or client.is_stopped() then
      id = vim.lsp.start_client(config)
      clients[root] = id
    end
    if id then
      vim.lsp.buf_attach_client(args.buf, id)
    end
  end,
})
