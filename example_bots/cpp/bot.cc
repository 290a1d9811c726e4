// A minimal Bid Euchre bot in C++: a uniformly random legal choice at every
// decision, over the arena protocol (proto/bideuchre/v1/arena.proto).
//
// The C++ code for the protocol is generated from the .proto file at build
// time (see the Makefile's example_bots/cpp rule); nothing generated is kept
// in the repository. Run it like any other bot, from the repository's root:
//   arena match --bot cpp=example_bots/cpp/build/bot --bot random='python -m example_bots.random_bot'

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <string>

#include <grpcpp/grpcpp.h>

#include "bideuchre/v1/arena.grpc.pb.h"

namespace v1 = bideuchre::v1;

namespace {

// A random index below n (n > 0).
int pick(std::mt19937_64& rng, int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

// The seed of one game: ARENA_SEED mixed with the game id (FNV-1a), so a game
// plays the same whichever games this process played before it.
std::uint64_t game_seed(std::uint64_t seed, const std::string& game_id) {
  std::uint64_t h = 1469598103934665603ULL ^ seed;
  for (unsigned char c : game_id) h = (h ^ c) * 1099511628211ULL;
  return h;
}

// The answer to one request: a random entry of the request's legal list, or
// `count` random cards of the hand for a give or a discard.
v1::BotMessage answer(const v1::DecisionRequest& request, std::mt19937_64& rng) {
  v1::BotMessage message;
  v1::Action* action = message.mutable_action();
  action->set_request_id(request.request_id());
  switch (request.kind()) {
    case v1::DECISION_KIND_BID:
      *action->mutable_bid() = request.legal_bids(pick(rng, request.legal_bids_size()));
      break;
    case v1::DECISION_KIND_TRUMP:
      action->set_trump(request.legal_trumps(pick(rng, request.legal_trumps_size())));
      break;
    case v1::DECISION_KIND_GIVE:
    case v1::DECISION_KIND_DISCARD: {
      auto hand = request.hand();  // a copy to draw from without putting back
      for (std::uint32_t i = 0; i < request.count(); ++i) {
        int k = pick(rng, hand.size());
        action->mutable_cards()->add_cards(hand[k]);
        hand.erase(hand.begin() + k);
      }
      break;
    }
    case v1::DECISION_KIND_PLAY:
      action->set_card(request.legal_cards(pick(rng, request.legal_cards_size())));
      break;
    default:
      std::cerr << "cpp bot: unknown decision kind " << request.kind() << "\n";
  }
  return message;
}

}  // namespace

int main() {
  const char* address = std::getenv("ARENA_ADDRESS");
  const char* token = std::getenv("ARENA_TOKEN");
  if (address == nullptr || token == nullptr) {
    std::cerr << "cpp bot: " << (address == nullptr ? "ARENA_ADDRESS" : "ARENA_TOKEN") << " is not set\n";
    return 2;
  }
  const char* seed_text = std::getenv("ARENA_SEED");  // 0 .. 2^63-1; random when absent
  const std::uint64_t seed = seed_text ? std::strtoull(seed_text, nullptr, 10) : std::random_device{}();

  auto stub = v1::Arena::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  auto stream = stub->Play(&context);  // the one bidirectional stream of the session

  v1::BotMessage hello;
  hello.mutable_hello()->set_token(token);
  hello.mutable_hello()->set_bot_name("cpp");
  hello.mutable_hello()->set_bot_version("1.0");
  hello.mutable_hello()->set_protocol_version(1);
  stream->Write(hello);

  std::mt19937_64 rng(seed);
  int answered = 0;
  v1::RefereeMessage message;
  while (stream->Read(&message)) {
    switch (message.message_case()) {
      case v1::RefereeMessage::kWelcome:
        std::cerr << "cpp bot: welcomed as " << message.welcome().player() << "\n";
        break;
      case v1::RefereeMessage::kGameStart:
        rng.seed(game_seed(seed, message.game_start().game_id()));
        break;
      case v1::RefereeMessage::kDecision:
        stream->Write(answer(message.decision(), rng));
        ++answered;
        break;
      case v1::RefereeMessage::kGameOver:
        break;
      case v1::RefereeMessage::kError:
        std::cerr << "cpp bot: error " << v1::ErrorCode_Name(message.error().code()) << ": "
                  << message.error().message() << "\n";
        if (message.error().fatal()) {
          context.TryCancel();
          return 1;
        }
        break;
      case v1::RefereeMessage::kShutdown:
        std::cerr << "cpp bot: shutdown (" << message.shutdown().reason() << ") after " << answered
                  << " decisions\n";
        stream->WritesDone();  // half-close our side, then exit 0
        stream->Finish();
        return 0;
      default:
        break;
    }
  }
  grpc::Status status = stream->Finish();
  std::cerr << "cpp bot: the stream ended without a shutdown: " << status.error_message() << "\n";
  return 1;
}
