// The product's languages live with the language registry (shared-ui/languages, which imports nothing: no React
// reaches the server); the contract's schemas, mails and tables take them from there.
export * from 'shared-ui/languages';
