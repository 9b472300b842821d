// Text from outside gjkref (an implementation's detail, a case's name) made safe for line-based output and XML.
#pragma once

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "gjkref/implementations.hpp"

namespace gjkref::cli {

// An implementation's text (its detail: an exception's message, the end of its stderr, anything a plugin says) or a
// case's name on one line, for the line-based outputs (results.csv, report.md, eval's text): a backslash doubled, and
// a control character as its C escape (\n, \r, \t, or \xNN), so that every row of results.csv is one line, no escape
// sequence reaches a terminal, and the text can still be read back.
inline std::string one_line(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    switch (ch) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (const auto byte = static_cast<unsigned char>(ch); byte < 0x20 || byte == 0x7f) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
          out += escaped;
        } else {
          out += ch;
        }
    }
  }
  return out;
}

// The first `bytes` bytes of a UTF-8 text, or fewer, so as not to cut a character.
inline std::string first_bytes(const std::string& text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;  // a continuation byte
  return text.substr(0, bytes);
}

// The longest message gjkref prints that quotes its input (a case file's error names the case, a key, a value): a
// 20 MB coordinate string in a case file made a 20 MB line on stderr and in eval's JSON.
inline constexpr std::size_t kLongestQuotingMessage = 1000;

// A message that quotes input, as it is printed: on one line (one_line), valid UTF-8 (a name cut after 40 bytes
// inside a character reached stderr as invalid UTF-8), and at most kLongestQuotingMessage bytes, cut where a
// character ends, with how much was left out. Pinned by CTest cli.render-text.
inline std::string message_text(const std::string& text) {
  const std::string line = impl::as_utf8(one_line(text));
  if (line.size() <= kLongestQuotingMessage) return line;
  const std::string kept = first_bytes(line, kLongestQuotingMessage);
  return kept + "... (" + std::to_string(line.size() - kept.size()) + " bytes more)";
}

// A JSON document as text, each byte that is not valid UTF-8 written as U+FFFD: a file or directory name from the
// command line is bytes, not text (Linux allows any but '/' and NUL), and nlohmann's dump throws on such bytes: one
// case file so named stopped a whole `eval --json`, every line already computed lost. indent −1: one line.
inline std::string json_text(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Text in XML 1.0 (junit.xml, render's SVG): on one line (one_line: no control character is left, and XML allows none
// of them but those one_line escapes), with the five markup characters as entities.
inline std::string xml_text(const std::string& text) {
  std::string out;
  for (const char ch : one_line(text)) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += ch;
    }
  }
  return out;
}

}  // namespace gjkref::cli
