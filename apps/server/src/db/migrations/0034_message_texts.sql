-- A message may carry its title and content per console language ({"zh": {"title", "content"},
-- "en": {…}}): the inbox answers in the reader's language (Accept-Language), title/content
-- otherwise.
alter table user_messages add column texts jsonb;
