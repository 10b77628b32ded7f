-- A republish run claims each batch before it writes the batch's files and clears the claim
-- when it records the new versions: a claim still there belongs to a run that died in between,
-- whose files may be written already. The run that takes over compares before it writes.
ALTER TABLE pages ADD COLUMN republish_claimed_at timestamptz;
