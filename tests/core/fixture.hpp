// fixture.hpp — reads tests/fixtures/worked-example.json, the one fixture all three suites share.
//
// A minimal JSON reader (objects, arrays, numbers, strings, true/false/null) is enough for the
// fixture; matrices are arrays of rows, and −∞ is written as the string "-Infinity".
#pragma once

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace fixture {

struct Json {
    enum Type { Null, Bool, Number, String, Array, Object } type = Null;
    double number = 0;
    bool boolean = false;
    std::string string;
    std::vector<Json> array;
    std::map<std::string, Json> object;

    const Json& operator[](const std::string& key) const {
        auto it = object.find(key);
        if (it == object.end()) throw std::runtime_error("fixture: no key " + key);
        return it->second;
    }
    bool has(const std::string& key) const { return object.count(key) != 0; }
};

class Parser {
  public:
    explicit Parser(std::string text) : s_(std::move(text)) {}
    Json parse() {
        Json v = value();
        return v;
    }

  private:
    std::string s_;
    std::size_t p_ = 0;

    void skip() {
        while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
    }
    [[noreturn]] void fail(const char* what) {
        throw std::runtime_error(std::string("fixture: ") + what + " at byte " + std::to_string(p_));
    }
    Json value() {
        skip();
        if (p_ >= s_.size()) fail("unexpected end");
        const char c = s_[p_];
        Json v;
        if (c == '{') {
            v.type = Json::Object;
            ++p_;
            skip();
            if (s_[p_] == '}') {
                ++p_;
                return v;
            }
            for (;;) {
                skip();
                const std::string key = str();
                skip();
                if (s_[p_++] != ':') fail("expected ':'");
                v.object[key] = value();
                skip();
                if (s_[p_] == ',') {
                    ++p_;
                    continue;
                }
                if (s_[p_++] != '}') fail("expected '}'");
                return v;
            }
        }
        if (c == '[') {
            v.type = Json::Array;
            ++p_;
            skip();
            if (s_[p_] == ']') {
                ++p_;
                return v;
            }
            for (;;) {
                v.array.push_back(value());
                skip();
                if (s_[p_] == ',') {
                    ++p_;
                    continue;
                }
                if (s_[p_++] != ']') fail("expected ']'");
                return v;
            }
        }
        if (c == '"') {
            v.type = Json::String;
            v.string = str();
            return v;
        }
        if (s_.compare(p_, 4, "true") == 0) {
            p_ += 4;
            v.type = Json::Bool;
            v.boolean = true;
            return v;
        }
        if (s_.compare(p_, 5, "false") == 0) {
            p_ += 5;
            v.type = Json::Bool;
            return v;
        }
        if (s_.compare(p_, 4, "null") == 0) {
            p_ += 4;
            return v;
        }
        char* end = nullptr;
        v.number = std::strtod(s_.c_str() + p_, &end);
        if (end == s_.c_str() + p_) fail("bad value");
        p_ = static_cast<std::size_t>(end - s_.c_str());
        v.type = Json::Number;
        return v;
    }
    std::string str() {
        if (s_[p_++] != '"') fail("expected string");
        std::string out;
        while (p_ < s_.size() && s_[p_] != '"') {
            if (s_[p_] == '\\') {
                ++p_;
                out += s_[p_] == 'n' ? '\n' : s_[p_];
                ++p_;
                continue;
            }
            out += s_[p_++];
        }
        ++p_;
        return out;
    }
};

inline const Json& load() {
    static const Json root = [] {
        std::ifstream in(ATTN_FIXTURE);
        if (!in) throw std::runtime_error("fixture: cannot open " ATTN_FIXTURE);
        std::stringstream ss;
        ss << in.rdbuf();
        return Parser(ss.str()).parse();
    }();
    return root;
}

// The case with this name, e.g. case_named("worked example").
inline const Json& case_named(const std::string& name) {
    for (const Json& c : load()["cases"].array)
        if (c["name"].string == name) return c;
    throw std::runtime_error("fixture: no case " + name);
}

inline double number(const Json& v) {
    if (v.type == Json::String && v.string == "-Infinity") return -std::numeric_limits<double>::infinity();
    return v.number;
}

// A JSON array of rows as a Matrix (float32, as the core computes).
inline attn::Matrix matrix(const Json& rows) {
    const std::size_t r = rows.array.size(), c = rows.array.at(0).array.size();
    attn::Matrix m(r, c);
    for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < c; ++j) m(i, j) = static_cast<float>(number(rows.array[i].array.at(j)));
    return m;
}

}  // namespace fixture
