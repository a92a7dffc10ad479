-- TGDL in Neovim (0.10 or later): put this file in ~/.config/nvim/plugin/ (or require it
-- from init.lua). It registers the .tgdl filetype and starts `tgdlc lsp` for every TGDL
-- buffer; diagnostics, hover (K), go to definition, references, completion (<C-x><C-o>),
-- rename and formatting (vim.lsp.buf.format()) then work as with any language server.
vim.filetype.add({ extension = { tgdl = "tgdl" } })

vim.api.nvim_create_autocmd("FileType", {
  pattern = "tgdl",
  callback = function(args)
    vim.bo[args.buf].commentstring = "// %s"
    vim.bo[args.buf].shiftwidth = 4
    vim.bo[args.buf].expandtab = true
    local root = vim.fs.root(args.buf, { ".git", "Cargo.toml" })
      or vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf))
    vim.lsp.start({
      name = "tgdlc",
      cmd = { vim.g.tgdlc_path or "tgdlc", "lsp" },
      root_dir = root,
    })
  end,
})
