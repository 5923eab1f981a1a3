-- Plain-text messages were stored through the HTML sanitiser, which
-- entity-encodes &, < and > (and the display escaped them again: retailers read "&amp;").
-- Plain text is now stored as typed. A stored message without a tag is plain text (the
-- sanitiser turned every typed "<" into "&lt;"), so decode its entities once; "&amp;"
-- last, so a typed "&lt;" (stored "&amp;lt;") comes back as "&lt;".
UPDATE `messages` SET `content` = replace(replace(replace(`content`, '&lt;', '<'), '&gt;', '>'), '&amp;', '&')
WHERE instr(`content`, '<') = 0 AND instr(`content`, '&') > 0;
