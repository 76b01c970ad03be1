-- Data written against the schema of release 1.0.0 (migrations 0000 to 0021), as a 1.0.0 server kept it.
-- release-upgrade.test.ts loads it into a database at that level, applies the current migrations and serves it.
-- Never change this file: add a file for a later release instead.
INSERT INTO users (id, email, password_hash, email_verified) VALUES
  ('rel100-ada', 'ada.release@g.ucla.edu', 'scrypt$32768$8$1$aQqeDN5ga5bt8eH9g097_A$cLp1IiLhDWZtUDFII8eDmv2Jjerrdny1bCWdPN2UrBo', true),
  ('rel100-bob', 'bob.release@g.ucla.edu', 'scrypt$32768$8$1$aQqeDN5ga5bt8eH9g097_A$cLp1IiLhDWZtUDFII8eDmv2Jjerrdny1bCWdPN2UrBo', true);
INSERT INTO profiles (user_id, email, college, name, lowercase_name, major, year, courses, has_custom_profile_picture) VALUES
  ('rel100-ada', 'ada.release@g.ucla.edu', 'UCLA', 'Ada Release', 'ada release', 'Mathematics', 'Senior',
   '[{"id": "manual-rel100", "name": "MATH 115A"}]', false),
  ('rel100-bob', 'bob.release@g.ucla.edu', 'UCLA', 'Bob Release', 'bob release', 'Physics', 'Junior', '[]', false);
INSERT INTO connections (user_id, friend_id) VALUES ('rel100-ada', 'rel100-bob'), ('rel100-bob', 'rel100-ada');
INSERT INTO chats (id, user_a, user_b) VALUES ('rel100-ada_rel100-bob', 'rel100-ada', 'rel100-bob');
INSERT INTO messages (id, conversation_kind, conversation_id, sender_id, sender_name, type, content, created_at) VALUES
  ('00000000-0100-4000-8000-000000000001', 'chat', 'rel100-ada_rel100-bob', 'rel100-ada', 'Ada Release', 'text', 'Shall we study on Thursday?',
   '2026-11-20T10:00:00Z'),
  ('00000000-0100-4000-8000-000000000002', 'chat', 'rel100-ada_rel100-bob', 'rel100-bob', 'Bob Release', 'text', 'See you at the library',
   '2026-11-20T10:01:00Z');
UPDATE chats SET last_message = 'See you at the library', last_message_time = '2026-11-20T10:01:00Z',
  last_message_sender = 'rel100-bob', last_message_cursor = (SELECT max(cursor) FROM messages)
  WHERE id = 'rel100-ada_rel100-bob';
INSERT INTO groups (id, kind, name, description, created_by) VALUES
  ('rel100-group', 'group', 'Linear algebra crew', 'Made by a 1.0.0 server', 'rel100-ada');
INSERT INTO group_members (group_id, user_id) VALUES ('rel100-group', 'rel100-ada'), ('rel100-group', 'rel100-bob');
INSERT INTO messages (id, conversation_kind, conversation_id, sender_id, sender_name, type, content, created_at) VALUES
  ('00000000-0100-4000-8000-000000000003', 'group', 'rel100-group', 'rel100-bob', 'Bob Release', 'text', 'Problem set 4 is up',
   '2026-11-20T11:00:00Z');
UPDATE groups SET last_message = 'Problem set 4 is up', last_message_time = '2026-11-20T11:00:00Z',
  last_message_sender = 'rel100-bob', last_message_cursor = (SELECT max(cursor) FROM messages)
  WHERE id = 'rel100-group';
