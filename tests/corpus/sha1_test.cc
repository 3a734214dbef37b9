#include "corpus/sha1.h"

#include <string>

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

std::string Hex(const std::string& text) {
  return Sha1Hex(
      ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

TEST(Sha1Test, FipsVectors) {
  EXPECT_EQ(Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
            "a49b2446a02c645bf419f995b67091253a04a259");
  EXPECT_EQ(Hex(std::string(1000000, 'a')),
            "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

// Lengths around the padding boundaries (55/56 bytes fit one or two padding
// blocks; 64 is a whole block).
TEST(Sha1Test, PaddingBoundaries) {
  EXPECT_EQ(Hex(std::string(55, 'x')),
            "cef734ba81a024479e09eb5a75b6ddae62e6abf1");
  EXPECT_EQ(Hex(std::string(56, 'x')),
            "901305367c259952f4e7af8323f480d59f81335b");
  EXPECT_EQ(Hex(std::string(63, 'x')),
            "0ddc4e0cccd9a12850deb5abb0853a4425559fec");
  EXPECT_EQ(Hex(std::string(64, 'x')),
            "bb2fa3ee7afb9f54c6dfb5d021f14b1ffe40c163");
  EXPECT_EQ(Hex(std::string(65, 'x')),
            "78c741ddc482e4cdf8c474a0876347a0905b6233");
  EXPECT_EQ(Hex(std::string(119, 'x')),
            "4300320394f7ee239bcdce7d3b8bcee173a0cd5c");
  EXPECT_EQ(Hex(std::string(120, 'x')),
            "ceb2821639c4b6dcb10bce0e522ca2e608ce056d");
}

TEST(Sha1Test, DigestMatchesHex) {
  const uint8_t abc[] = {'a', 'b', 'c'};
  auto digest = Sha1Digest(abc);
  EXPECT_EQ(digest[0], 0xa9);
  EXPECT_EQ(digest[19], 0x9d);
  EXPECT_EQ(Sha1Hex(abc).size(), kSha1HexChars);
}

}  // namespace
}  // namespace ringfuzz
