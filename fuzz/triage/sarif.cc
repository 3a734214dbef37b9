#include "fuzz/triage/sarif.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "fuzz/engine/executor.h"
#include "telemetry/json_writer.h"

namespace ringfuzz {
namespace {

struct Rule {
  Find::Kind kind;
  const char* name;
  const char* description;
};

constexpr Rule kRules[] = {
    {Find::Kind::kCrash, "TargetCrash",
     "The target called fz_crash(code): a planted or detected bug."},
    {Find::Kind::kOverread, "InputOverread",
     "The target read past the end of its input (fz_byte(i) with i >= len)."},
    {Find::Kind::kOutOfBounds, "LocalArrayOutOfBounds",
     "The target indexed a local array out of its bounds."},
    {Find::Kind::kTimeout, "Timeout",
     "An input exhausted the target's loop budget."},
};

std::string Uri(absl::string_view file, absl::string_view base) {
  absl::string_view uri = file;
  if (!base.empty() && absl::ConsumePrefix(&uri, base)) {
    absl::ConsumePrefix(&uri, "/");
    return std::string(uri);
  }
  if (absl::StartsWith(uri, "/")) return absl::StrCat("file://", uri);
  return std::string(uri);
}

}  // namespace

std::string SarifLog(const CiResult& result, absl::string_view uri_base) {
  telemetry::JsonWriter json;
  json.BeginObject()
      .Field("$schema", kSarifSchema)
      .Field("version", kSarifVersion)
      .Key("runs")
      .BeginArray()
      .BeginObject()
      .Key("tool")
      .BeginObject()
      .Key("driver")
      .BeginObject()
      .Field("name", "ringfuzz")
      .Field("informationUri", "https://github.com/ringfuzz/ringfuzz")
      .Key("rules")
      .BeginArray();
  for (const Rule& rule : kRules) {
    json.BeginObject()
        .Field("id", BugKindName(rule.kind))
        .Field("name", rule.name)
        .Key("shortDescription")
        .BeginObject()
        .Field("text", rule.description)
        .EndObject()
        .Key("defaultConfiguration")
        .BeginObject()
        .Field("level", "error")
        .EndObject()
        .EndObject();
  }
  json.EndArray().EndObject().EndObject().Key("results").BeginArray();
  for (const CiBug& bug : result.bugs) {
    uint64_t index = 0;
    while (index < std::size(kRules) &&
           BugKindName(kRules[index].kind) != bug.signature.kind) {
      ++index;
    }
    const std::string file =
        bug.signature.file.empty() ? result.target : bug.signature.file;
    json.BeginObject()
        .Field("ruleId", bug.signature.kind)
        .Field("ruleIndex", index)
        .Field("level", "error")
        .Key("message")
        .BeginObject()
        .Field("text", absl::StrCat(bug.signature.description, " (",
                                    CiPhaseName(bug.phase), "; ", bug.count,
                                    " artifact(s); smallest reproducer ",
                                    bug.reproducer, ", ", bug.size, " bytes)"))
        .EndObject()
        .Field("baselineState", bug.is_new ? "new" : "unchanged")
        .Key("partialFingerprints")
        .BeginObject()
        .Field("ringfuzzBucket/v1", bug.signature.Key())
        .EndObject()
        .Key("locations")
        .BeginArray()
        .BeginObject()
        .Key("physicalLocation")
        .BeginObject()
        .Key("artifactLocation")
        .BeginObject()
        .Field("uri", Uri(file, uri_base))
        .EndObject();
    if (bug.signature.line > 0) {
      json.Key("region")
          .BeginObject()
          .Field("startLine", bug.signature.line)
          .EndObject();
    }
    json.EndObject().EndObject().EndArray().EndObject();
  }
  json.EndArray().EndObject().EndArray().EndObject();
  return json.text();
}

}  // namespace ringfuzz
