-- When the account itself let an image go (a change replaced it, or its page was deleted) but
-- its file could not be deleted then: the nightly sweep may remove such an image of a claimed
-- account, and nothing else of a claimed account's.
ALTER TABLE media ADD COLUMN released_at timestamptz;
