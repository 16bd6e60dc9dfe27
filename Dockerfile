# The site's image: the same build `npm start` serves, for the nodes of docker-compose.yml
# (README "Running several nodes"). One image runs a web node (`npm start`) or a worker
# (`npm run worker`).
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4321
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
EXPOSE 4321
CMD ["npm", "start"]
