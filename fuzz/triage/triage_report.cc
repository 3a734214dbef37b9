#include "fuzz/triage/triage_report.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "telemetry/json_writer.h"

namespace ringfuzz {
namespace {

using Row = std::vector<std::string>;

std::string AlignedRows(const std::vector<Row>& rows) {
  std::vector<size_t> widths;
  for (const Row& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  std::string text;
  for (const Row& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      absl::StrAppend(&line, row[c]);
      if (c + 1 < row.size()) {
        line.append(widths[c] - row[c].size() + 2, ' ');
      }
    }
    absl::StrAppend(&text, line, "\n");
  }
  return text;
}

}  // namespace

std::string TriageTable(const TriageReport& report) {
  std::vector<Row> rows = {{"BUCKET", "COUNT", "SMALLEST", "SIZE", "KIND",
                            "LOCATION", "FIRST-SEEN", "GPU", "CPU"}};
  std::string keys;
  for (size_t b = 0; b < report.buckets.size(); ++b) {
    const Bucket& bucket = report.buckets[b];
    const TriagedArtifact& smallest = report.artifacts[bucket.smallest];
    const TriagedArtifact& first = report.artifacts[bucket.first_seen];
    std::string cpu(VerdictName(bucket.cpu.verdict));
    if (bucket.cpu.verdict == CpuReplay::Verdict::kDiffers) {
      absl::StrAppend(&cpu, " (", bucket.cpu.detail, ")");
    }
    std::string location =
        bucket.reproduces() ? bucket.signature->Location() : "-";
    rows.push_back({absl::StrCat("#", b + 1),
                    absl::StrCat(bucket.members.size()), smallest.file.path,
                    absl::StrCat(smallest.file.size),
                    bucket.reproduces() ? bucket.signature->category : "none",
                    location.empty() ? "?" : location, first.seen.Describe(),
                    bucket.reproduces() ? "yes" : "no", cpu});
    absl::StrAppend(&keys, "#", b + 1, " ", bucket.Key(), "\n");
  }
  std::string text = AlignedRows(rows);
  absl::StrAppend(&text, keys, report.artifacts.size(), " artifacts, ",
                  report.buckets.size(), " buckets\n");
  if (!report.cpu_note.empty()) {
    absl::StrAppend(&text, "NOTE: ", report.cpu_note, "\n");
  }
  return text;
}

std::string TriageJson(const TriageReport& report) {
  telemetry::JsonWriter json;
  json.BeginObject()
      .Field("artifacts", uint64_t{report.artifacts.size()})
      .Key("buckets")
      .BeginArray();
  for (size_t b = 0; b < report.buckets.size(); ++b) {
    const Bucket& bucket = report.buckets[b];
    const TriagedArtifact& smallest = report.artifacts[bucket.smallest];
    const TriagedArtifact& first = report.artifacts[bucket.first_seen];
    json.BeginObject()
        .Field("id", uint64_t{b + 1})
        .Field("key", bucket.Key())
        .Field("reproduces", bucket.reproduces());
    if (bucket.reproduces()) {
      const TriageSignature& s = *bucket.signature;
      json.Field("kind", s.kind)
          .Field("category", s.category)
          .Field("description", s.description)
          .Field("function", s.function)
          .Field("file", s.file)
          .Field("line", s.line);
    } else {
      json.Field("kind", "none");
    }
    json.Field("count", uint64_t{bucket.members.size()})
        .Key("smallest")
        .BeginObject()
        .Field("path", smallest.file.path)
        .Field("size", smallest.file.size)
        .Field("sha1", smallest.sha1)
        .EndObject()
        .Key("first_seen")
        .BeginObject()
        .Field("path", first.file.path)
        .Field("source", first.seen.find.has_value() ? "telemetry" : "mtime")
        .Field("time",
               static_cast<uint64_t>(std::max<int64_t>(0, first.seen.time())));
    if (first.seen.find.has_value()) {
      json.Field("epoch", first.seen.find->epoch)
          .Field("slot", first.seen.find->slot)
          .Field("parent", first.seen.find->parent)
          .Field("mutations", first.seen.find->mutations);
    }
    json.EndObject()
        .Field("gpu", bucket.reproduces())
        .Field("cpu", VerdictName(bucket.cpu.verdict))
        .Field("cpu_detail", bucket.cpu.detail)
        .Key("members")
        .BeginArray();
    for (size_t m : bucket.members) json.String(report.artifacts[m].file.path);
    json.EndArray().EndObject();
  }
  json.EndArray().Field("cpu_note", report.cpu_note).EndObject();
  return json.text();
}

}  // namespace ringfuzz
