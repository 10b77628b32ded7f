-- Pages ever made by programs on an account (at most 10 in total): deleting a page does not give
-- its slot back, so the count is kept on the account rather than counted from live pages.
ALTER TABLE accounts ADD COLUMN program_pages_made integer NOT NULL DEFAULT 0;
UPDATE accounts SET program_pages_made = (
  SELECT count(*) FROM pages WHERE pages.account_id = accounts.id AND pages.by_program
);
